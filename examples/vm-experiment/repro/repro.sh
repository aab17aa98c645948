#!/usr/bin/env bash
# Runs every *Repro.java here (or those named as arguments) on HotSpot and on Espresso 25.0.2 (from Maven Central), with the
# same class library, and prints both outputs. Needs mvn, javac 17+ and a JDK 21+ (JAVA_HOME or PATH);
# GUEST_HOME (default: that JDK) is the guest's class library.
set -euo pipefail
cd "$(dirname "$0")"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
javac=${JAVAC:-javac}  # any JDK 17+ javac; the runtimes under test may lack one
guest=${GUEST_HOME:-$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p')}
work=${WORK:-/tmp/espresso-repro}
mkdir -p "$work/classes"
if [ ! -d "$work/lib" ]; then
  cat > "$work/pom.xml" <<'POM'
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>repro</groupId><artifactId>repro</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.graalvm.polyglot</groupId><artifactId>polyglot</artifactId><version>25.0.2</version></dependency>
    <dependency><groupId>org.graalvm.espresso</groupId><artifactId>java-community</artifactId><version>25.0.2</version><type>pom</type></dependency>
  </dependencies></project>
POM
  (cd "$work" && mvn -B -q dependency:copy-dependencies -DoutputDirectory=lib)
fi
jars=$(ls "$work"/lib/*.jar | tr '\n' ':')
"$javac" --release 17 -d "$work/classes" -cp "$jars" RunOnEspresso.java *Repro.java
list=("$@"); [ ${#list[@]} -gt 0 ] || list=(*Repro.java)
for src in "${list[@]}"; do
  main=${src%.java}
  echo "== $main on HotSpot ($guest)"
  "$java" -cp "$work/classes" "$main" || true
  echo "== $main on Espresso 25.0.2 ($guest)"
  "$java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
    -cp "$jars$work/classes" RunOnEspresso "$guest" "$work/classes" "$main" 2>&1 | grep -v '^WARNING' || true
done
