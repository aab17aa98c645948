#!/usr/bin/env bash
# Where a record's time goes (docs/benchmarks.md, "Where the time goes"): `perf record` over
# difftest and its workers during one record, the workers' JIT symbols taken with
# `jcmd PID Compiler.perfmap` while they live (they are killed, never exit, so a map written
# at exit would be lost), then the samples split by process, thread and code.
# Usage: profile.sh [SECONDS]   (needs perf and jcmd; output in /tmp/difftest-profile)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
difftest=${DIFFTEST:-$here/../../target/release/difftest}
seconds=${1:-40}
out=/tmp/difftest-profile
rm -rf "$out" && mkdir -p "$out" && cd "$out"
# A target like temurin17 whose workers accept jcmd (they run with -Xrs, so the attach
# listener must start at once); unsandboxed, so jcmd can reach them.
"$difftest" targets new prof17 --jdk temurin17 --jvm-option=-XX:+StartAttachListener >/dev/null
perf record -e cpu-clock -F 999 -g -o perf.data -- "$difftest" record --impl prof17 \
  --no-sandbox --time-limit "$seconds" --reruns 1 --no-progress -o suite.yaml.zst \
  >record.txt 2>&1 &
for _ in $(seq 1 $((seconds / 5 + 4))); do
  sleep 5
  for pid in $(pgrep -f "$difftest __worker" || true); do
    timeout 10 jcmd "$pid" Compiler.perfmap >/dev/null 2>&1 || true
  done
done
wait
perf script -i perf.data -F pid,tid,comm,time,ip,sym,dso -G 2>/dev/null >samples.txt
python3 "$here/perf_breakdown.py" samples.txt | tee breakdown.txt
