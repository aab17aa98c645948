#!/usr/bin/env bash
# The hostile campaign of issue 31: corrupt suites of many kinds, signals during every
# phase, SIGKILL with hanging tests, and library code that writes files, execs, opens
# sockets, hoards native memory and calls System.exit — each case with the outcome it must
# have. A case fails on an exit code outside its expected set, a false PASS (exit 0 where
# the true verdict is 1), a panic, a run over its time bound or a peak RSS over 512 MiB, a
# worker left running, or a torn suite. Prints one row per case and a summary table (the
# table of examples/soak/README.md); exit 1 when a case failed.
#
# Usage: nice bash examples/soak/hostile.sh [MUTATIONS] (default 100 random mutations).
# Needs javac, zstd, python3; root is not needed. DIFFTEST names the binary.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"
mutations="${1:-100}"
work="$(mktemp -d /tmp/difftest-hostile-XXXXXX)"
trap 'rm -rf "$work"' EXIT
difftest="$work/bin/difftest"
mkdir -p "$work/bin"
cp "${DIFFTEST:-$repo/target/release/difftest}" "$difftest"
unset CI

java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
mkdir -p "$work/targets"
target() { # NAME CLASSES
  printf 'name: %s\ndescription: %s\njdk:\n  path: %s\nclasspath:\n  - path: %s\n' \
    "$1" "$1" "$java_home" "$2" > "$work/targets/$1.yaml"
}
for v in v1 v2; do
  javac --release 11 -d "$work/classes-$v" "$repo"/examples/fixture-lib/$v/example/lib/*.java
  target "hostile-$v" "$work/classes-$v"
done
javac --release 11 -d "$work/classes-hostile" \
  "$repo"/tests/fixtures/hostile/example/hostile/*.java "$repo"/tests/fixtures/hostile/example/hang/*.java
target hostile-code "$work/classes-hostile"
mkdir -p "$work/exit/example/exit"
cat > "$work/exit/example/exit/Quit.java" <<'EOF'
package example.exit;
/** Library code that ends the JVM, halts it, or throws from a static initializer. */
public final class Quit {
    private Quit() {}
    public static int exit(int code) { System.exit(code); return code; }
    public static int halt(int code) { Runtime.getRuntime().halt(code); return code; }
    public static int fine(int n) { return n + 1; }
}
EOF
javac --release 11 -d "$work/classes-exit" "$work/exit/example/exit/Quit.java"
target hostile-quit "$work/classes-exit"
export DIFFTEST_TARGETS="$work/targets"
cd "$work"

cases=0 failed=0
declare -A cat_cases cat_failed
results="$work/results"; : > "$results"

# check CATEGORY NAME EXPECTED(rc|rc…) SECONDS -- ARGS…: runs difftest ARGS under /usr/bin/time.
check() {
  local cat="$1" name="$2" expect="$3" limit="$4"; shift 5
  local out="$work/case.out" err="$work/case.err" tm="$work/case.time"
  timeout -s KILL "$((limit + 30))" /usr/bin/time -f '%M %e' -o "$tm" "$difftest" "$@" \
    > "$out" 2> "$err"
  local rc=$? verdict=ok
  read -r rss secs < <(tail -1 "$tm" 2>/dev/null || echo "0 0")
  [[ "$rss" =~ ^[0-9]+$ ]] || rss=0
  if ! [[ "|$expect|" == *"|$rc|"* ]]; then verdict="exit $rc, expected $expect"; fi
  if grep -q "panicked" "$err"; then verdict="panic: $(grep -m1 panicked "$err")"; fi
  if [ "$rss" -gt $((512 * 1024)) ]; then verdict="peak RSS $((rss / 1024)) MiB"; fi
  if awk -v s="${secs:-0}" -v l="$limit" 'BEGIN { exit !(s > l) }'; then verdict="took ${secs} s (bound $limit)"; fi
  if [ "$rc" -eq 0 ] && [[ "|$expect|" != *"|0|"* ]]; then verdict="FALSE PASS: $verdict"; fi
  record_case "$cat" "$name" "$verdict" "$rc" "$rss" "$secs" "$(head -c 160 "$err" | tr '\n' ' ')"
}

record_case() { # CATEGORY NAME VERDICT RC RSS SECS DETAIL
  cases=$((cases + 1)); cat_cases[$1]=$(( ${cat_cases[$1]:-0} + 1 ))
  if [ "$3" != ok ]; then
    failed=$((failed + 1)); cat_failed[$1]=$(( ${cat_failed[$1]:-0} + 1 ))
    printf 'FAIL %-10s %-44s %s | %s\n' "$1" "$2" "$3" "$7"
  else
    printf 'ok   %-10s %-44s exit %s, %s MiB, %s s\n' "$1" "$2" "$4" "$(( ${5:-0} / 1024 ))" "$6"
  fi
  echo "$1|$2|$3" >> "$results"
}

# --- the suites: base (hostile-v1 without the method that hangs and the one that exits on
# release 2, so a replay takes seconds; the true verdict on hostile-v2 is exit 1) and full ---------
printf 'example.lib.Calculator.twice*\nexample.lib.Calculator.checked*\n' > omit.txt
"$difftest" record --impl hostile-v1 --packages example.lib --time-limit 6 --output-limit 600 \
  --reruns 1 --timeout 2 --seed 7 --quiet --omit omit.txt -o base.yaml > /dev/null 2>&1 \
  || { echo "the base record failed"; exit 1; }
"$difftest" record --impl hostile-v1 --packages example.lib --time-limit 6 --output-limit 600 \
  --reruns 1 --timeout 2 --seed 7 --quiet -o full.yaml > /dev/null 2>&1 \
  || { echo "the full record failed"; exit 1; }
zstd -q -19 base.yaml -o base.yaml.zst
replay_on() { # TARGET SUITE [more]
  local t="$1" s="$2"; shift 2
  echo replay --impl "$t" --suite "$s" --report-dir "$work/reports" --no-minimize --timeout 2 --quiet "$@"
}
size="$(stat -c %s base.yaml)"
zsize="$(stat -c %s base.yaml.zst)"
# The true verdicts first: base on hostile-v2 differs (1), on hostile-v1 passes (0).
check base "base suite on hostile-v2 (true verdict 1)" 1 300 -- $(replay_on hostile-v2 base.yaml)
check base "base suite on hostile-v1 (true verdict 0)" 0 120 -- $(replay_on hostile-v1 base.yaml)

# --- 1. corrupt suites: every one refused (2), or its true verdict (1), never PASS ----------
corrupt() { # NAME FILE: replay on hostile-v2 and suite stats
  check corrupt "$1 (replay)" "1|2" 120 -- $(replay_on hostile-v2 "$2")
  check corrupt "$1 (suite stats)" "0|2" 60 -- suite stats "$2"
}
for cut in 0 1 100 $((size / 10)) $((size / 2)) $((size * 9 / 10)) $((size - 2)); do
  head -c "$cut" base.yaml > "cut-$cut.yaml"
  check corrupt "truncated at byte $cut of $size" 2 60 -- $(replay_on hostile-v2 "cut-$cut.yaml")
done
head -c $((size - 1)) base.yaml > nofinal.yaml
check corrupt "missing only the final newline" 1 300 -- $(replay_on hostile-v2 nofinal.yaml)
for cut in 1 $((zsize / 2)) $((zsize - 1)); do
  head -c "$cut" base.yaml.zst > "cut-$cut.yaml.zst"
  check corrupt "compressed, truncated at $cut of $zsize" 2 60 -- $(replay_on hostile-v2 "cut-$cut.yaml.zst")
done
flip() { # IN OUT OFFSET
  python3 - "$@" <<'EOF'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[int(sys.argv[3])] ^= 0x01
open(sys.argv[2], "wb").write(data)
EOF
}
for i in $(seq 1 12); do
  at=$(( (RANDOM * 32768 + RANDOM) % size ))
  flip base.yaml "flip-$i.yaml" "$at"
  check corrupt "byte flip at $at" "1|2" 120 -- $(replay_on hostile-v2 "flip-$i.yaml")
done
for i in $(seq 1 6); do
  at=$(( (RANDOM * 32768 + RANDOM) % zsize ))
  flip base.yaml.zst "zflip-$i.yaml.zst" "$at"
  check corrupt "compressed, byte flip at $at" 2 60 -- $(replay_on hostile-v2 "zflip-$i.yaml.zst")
done
mutate() { # IN OUT SEED: one random mutation of lines or bytes
  python3 - "$@" <<'EOF'
import random, sys
r = random.Random(int(sys.argv[3]))
lines = open(sys.argv[1], "rb").read().split(b"\n")
kind = r.randrange(7)
i, j = r.randrange(len(lines)), r.randrange(len(lines))
if kind == 0: del lines[i]
elif kind == 1: lines.insert(i, lines[j])
elif kind == 2: lines[i], lines[j] = lines[j], lines[i]
elif kind == 3: lines[i] = lines[i][: r.randrange(len(lines[i]) + 1)]
elif kind == 4: lines[i] = bytes(r.randrange(256) for _ in range(r.randrange(1, 40))) + lines[i]
elif kind == 5: lines[i] = lines[i].replace(b"1", b"2", 1) if b"1" in lines[i] else lines[i] + b" "
else: lines[i] = lines[i] + b"\xff\xfe"
open(sys.argv[2], "wb").write(b"\n".join(lines))
EOF
}
for i in $(seq 1 "$mutations"); do
  mutate base.yaml "mut.yaml" "$i"
  if cmp -s base.yaml mut.yaml; then continue; fi
  check mutation "random mutation $i" "1|2" 120 -- $(replay_on hostile-v2 mut.yaml)
done
sed "0,/^    tests: \([0-9]*\)$/s//    tests: 1\1/" base.yaml > header-tests.yaml
check corrupt "header lies about its test count" 2 60 -- $(replay_on hostile-v2 header-tests.yaml)
sed '0,/^  format: 4$/s//  format: 99/' base.yaml > header-format.yaml
check corrupt "header claims format 99" 2 60 -- $(replay_on hostile-v2 header-format.yaml)
sed '0,/^  reference: hostile-v1$/s//  reference: hostile-v2/' base.yaml > header-ref.yaml
check corrupt "header names another reference" "1|2" 120 -- $(replay_on hostile-v2 header-ref.yaml)
python3 - <<'EOF'
import re
text = open("base.yaml").read()
test_sum = re.sub(r"(sum: )([0-9a-f])", lambda m: m.group(1) + ("0" if m.group(2) != "0" else "1"), text, count=1)
open("sum-test.yaml", "w").write(test_sum)
lines = text.rstrip("\n").split("\n")
lines[-1] = lines[-1][:-1] + ("0" if lines[-1][-1] != "0" else "1")
open("sum-end.yaml", "w").write("\n".join(lines) + "\n")
open("no-end.yaml", "w").write("\n".join(lines[:-1]) + "\n")
huge = text.replace("\n", "\n# " + "x" * (70 << 20) + "\n", 3)
open("huge-line.yaml", "w").write(huge)
open("garbage.yaml", "wb").write(bytes(range(256)) * 4096)
EOF
check corrupt "a test's checksum changed" 2 60 -- $(replay_on hostile-v2 sum-test.yaml)
check corrupt "the end line's checksum changed" 2 60 -- $(replay_on hostile-v2 sum-end.yaml)
check corrupt "the end line removed" 2 60 -- $(replay_on hostile-v2 no-end.yaml)
check corrupt "a 70 MiB line" 2 60 -- $(replay_on hostile-v2 huge-line.yaml)
check corrupt "1 MiB of binary garbage" 2 60 -- $(replay_on hostile-v2 garbage.yaml)
: > empty.yaml
check corrupt "an empty file" 2 60 -- $(replay_on hostile-v2 empty.yaml)
truncate -s 1G sparse.yaml
check corrupt "a 1 GiB sparse file" 2 30 -- $(replay_on hostile-v2 sparse.yaml)
check corrupt "a 1 GiB sparse file (suite stats)" 2 30 -- suite stats sparse.yaml
check corrupt "/dev/zero" 2 30 -- $(replay_on hostile-v2 /dev/zero)
check corrupt "/dev/zero (suite stats)" 2 30 -- suite stats /dev/zero
mkfifo fifo.yaml
check corrupt "a named pipe" 2 30 -- $(replay_on hostile-v2 fifo.yaml)
check corrupt "a folder" 2 30 -- $(replay_on hostile-v2 "$work")
check corrupt "a missing file" 2 30 -- $(replay_on hostile-v2 nowhere.yaml)
head -c $((3 << 30)) /dev/zero | tr '\0' 'a' | zstd -q -1 -o bomb.yaml.zst
check corrupt "a zstd bomb (3 GiB of one line)" 2 60 -- $(replay_on hostile-v2 bomb.yaml.zst)
bad_name="$(printf 'bad-\xff\xfe.yaml')"
cp base.yaml "$bad_name"
check corrupt "a non-UTF-8 suite path" 2 30 -- $(replay_on hostile-v2 "$bad_name")
check corrupt "a non-UTF-8 output path (record)" 2 30 -- record --impl hostile-v1 --packages example.lib --time-limit 2 -o "$bad_name.out"

# --- the accepted list and the reports ------------------------------------------------------
"$difftest" $(replay_on hostile-v2 base.yaml) > /dev/null 2>&1
gid="$(python3 -c 'import json; r = json.load(open("reports/hostile-v2-vs-hostile-v1.json")); print(next(g["id"] for g in r["groups"] if g["status"] == "new"))')"
check accept "accept a new group" 0 30 -- accept "$gid" --suite base.yaml --report-dir reports --reason hostile
cp base.accepted.yaml accepted.good
sed -i 's/reason: hostile/reason: hostilE/' base.accepted.yaml
check accept "an edited accepted list (replay)" 2 60 -- $(replay_on hostile-v2 base.yaml)
check accept "an edited accepted list (accept)" 2 30 -- accept "$gid" --suite base.yaml --report-dir reports
head -c 40 accepted.good > base.accepted.yaml
check accept "a truncated accepted list" 2 60 -- $(replay_on hostile-v2 base.yaml)
rm -f base.accepted.yaml; mkfifo base.accepted.yaml
check accept "a named pipe as the accepted list" 2 10 -- $(replay_on hostile-v2 base.yaml)
rm -f base.accepted.yaml
truncate -s 1G base.accepted.yaml
check accept "a 1 GiB sparse accepted list" 2 10 -- $(replay_on hostile-v2 base.yaml)
cp accepted.good base.accepted.yaml
cp reports/hostile-v2-vs-hostile-v1.json report.good
flip report.good reports/hostile-v2-vs-hostile-v1.json 300
check accept "accept from a corrupt report" 2 30 -- accept "$gid" --suite base.yaml --report-dir reports
check accept "merge of a corrupt report" 2 30 -- report --merge reports/hostile-v2-vs-hostile-v1.json --report-dir merged
cp report.good reports/hostile-v2-vs-hostile-v1.json

# --- flags: absurd durations and counts are refused at parse time ---------------------------
for flag in "--time-limit 99999999999999999999" "--timeout 1e20" "--timeout 0.000001" \
  "--timeout nan" "--timeout -1" "--reruns 4294967296" "--jobs 100000" "--round-size 0" \
  "--max-value-bytes 0" "--output-limit -3"; do
  # shellcheck disable=SC2086
  check flags "record $flag" 2 30 -- record --impl hostile-v1 --packages example.lib $flag -o f.yaml
done
for flag in "--timeout 1e20" "--timeout 0.000001" "--reruns 4294967296" "--shard 3/2" "--jobs 0"; do
  # shellcheck disable=SC2086
  check flags "replay $flag" 2 30 -- $(replay_on hostile-v2 base.yaml) $flag
done

# --- 2. signals during every phase ----------------------------------------------------------
workers_left() { pgrep -f -- "^$difftest __worker" | wc -l; }
# signal_case NAME SIGNAL DELAY EXPECTED OUTPUT -- ARGS: sends SIGNAL after DELAY seconds.
signal_case() {
  local name="$1" sig="$2" delay="$3" expect="$4" output="$5"; shift 6
  rm -f "$output"
  local began=$SECONDS
  "$difftest" "$@" > "$work/sig.out" 2> "$work/sig.err" &
  local pid=$!
  sleep "$delay"; kill -"$sig" "$pid" 2>/dev/null
  wait "$pid"; local rc=$?
  sleep 1
  local verdict=ok left; left="$(workers_left)"
  [[ "|$expect|" == *"|$rc|"* ]] || verdict="exit $rc, expected $expect"
  grep -q panicked "$work/sig.err" && verdict="panic"
  [ "$left" -eq 0 ] || { verdict="$left workers left running"; pkill -KILL -f -- "^$difftest __worker"; }
  if [ -e "$output" ] && [[ "$output" == *.yaml* ]] && ! "$difftest" suite stats "$output" > /dev/null 2>&1; then
    verdict="torn suite $output"
  fi
  [ $((SECONDS - began)) -le 60 ] || verdict="took $((SECONDS - began)) s"
  record_case signals "$name" "$verdict" "$rc" 0 "$((SECONDS - began))" "$(head -c 160 "$work/sig.err" | tr '\n' ' ')"
}
rec_args=(record --impl hostile-v1 --packages example.lib --time-limit 8 --reruns 2 --timeout 2 --quiet -o sig.yaml)
# Job control on, so the background commands get SIGINT as from a terminal (a script's
# background jobs otherwise start with SIGINT ignored, which difftest keeps).
set -m
for sig in INT TERM KILL; do
  # INT or TERM: a record writes what it kept (130), or nothing when it kept no test yet
  # (2), or ends by the signal (130/143) before its handler is installed (while the target is
  # provisioned, before any output); a replay stops (130) or was done (1). KILL: 137, and a
  # suite is absent or whole.
  case $sig in
    KILL) expect_record="0|137" expect_replay="1|137" ;;
    *) expect_record="0|2|130|143" expect_replay="1|130|143" ;;
  esac
  for delay in 0.05 0.5 2 5 9; do
    signal_case "record, SIG$sig after $delay s" "$sig" "$delay" "$expect_record" sig.yaml -- "${rec_args[@]}"
  done
  for delay in 0.05 0.5 2 4; do
    signal_case "replay, SIG$sig after $delay s" "$sig" "$delay" "$expect_replay" none -- \
      $(replay_on hostile-v2 base.yaml)
  done
done
# A replay whose calls hang (Calculator.twice(0) on hostile-v2), killed while they hang.
signal_case "replay of hanging calls, SIGKILL" KILL 8 137 none -- replay --impl hostile-v2 --suite full.yaml --report-dir hang-reports --timeout 30 --quiet
signal_case "replay of hanging calls, SIGTERM" TERM 8 "130" none -- replay --impl hostile-v2 --suite full.yaml --report-dir hang-reports --timeout 30 --quiet
signal_case "record of spinning calls, SIGKILL" KILL 4 137 hang.yaml -- \
  record --impl hostile-code --classes example.hang.Hang --time-limit 30 --timeout 20 --quiet -o hang.yaml
signal_case "record of spinning calls, SIGTERM" TERM 4 "2|130" hang.yaml -- \
  record --impl hostile-code --classes example.hang.Hang --time-limit 30 --timeout 20 --quiet -o hang.yaml

# --- 3. library code that misbehaves --------------------------------------------------------
canary="$work/canary"; mkdir -p "$canary"
check library "record of Hostile (files, exec, sockets, memory, spin)" "0|2" 120 -- \
  record --impl hostile-code --classes example.hostile.Hostile --time-limit 40 --timeout 2 \
  --worker-memory 512M --quiet -o hostile.yaml
stray="$(find "$canary" "$repo" -newer base.yaml -name 'hostile*' -not -path '*/target/*' 2>/dev/null | head -3)"
record_case library "no file written outside the worker folder" "$([ -z "$stray" ] && echo ok || echo "stray: $stray")" 0 0 0 ""
check library "record of System.exit / Runtime.halt" "0|2" 60 -- \
  record --impl hostile-quit --classes example.exit.Quit --time-limit 15 --timeout 2 --quiet -o quit.yaml
check library "replay where System.exit and a hang are regressions" 1 300 -- $(replay_on hostile-v2 full.yaml)
record_case library "no worker left after the library cases" "$([ "$(workers_left)" -eq 0 ] && echo ok || echo "workers left")" 0 0 0 ""

echo
echo "| category | cases | failed |"
echo "|---|---:|---:|"
for c in base corrupt mutation accept flags signals library; do
  echo "| $c | ${cat_cases[$c]:-0} | ${cat_failed[$c]:-0} |"
done
echo "| **all** | **$cases** | **$failed** |"
[ "$failed" -eq 0 ]
