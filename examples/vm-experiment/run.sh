#!/usr/bin/env bash
# The VM experiment: one class library, other virtual machines. Record on Temurin 25 and
# Temurin 21, replay on Espresso (GraalVM's Java on Truffle) over the same class library, and
# on the same Temurin 25 build in three HotSpot execution modes (interpreter only, C1+C2,
# -Xcomp). Output: suite25.yaml, suite21.yaml, record*.txt, replay*.txt, reports/.
# Per-call timeouts come from the target files (`timeout:`: 60 s on Espresso and -Xcomp).
set -uo pipefail
cd "$(dirname "$0")"
difftest=${DIFFTEST:-../../target/release/difftest}
"$difftest" targets install temurin21 temurin25 espresso21 espresso25 \
  temurin25-int temurin25-c2 temurin25-xcomp
for v in 25 21; do
  "$difftest" record --impl temurin$v --time-limit 60 --output-limit 10000 --reruns 3 \
    --seed 2007 -o suite$v.yaml --no-progress 2>&1 | tee record$v.txt
done
# One target per replay, so each wall time (start-up included) is its own. Segments of 5,000
# tests let both cores work on a 10,000-test suite (one Espresso context per segment).
replay() { # replay TARGET SUITE LOG REPORT-DIR [FLAGS…]
  local tgt=$1 suite=$2 log=$3 dir=$4; shift 4
  /usr/bin/time -f "$tgt: %e s wall, max RSS of one process %M KiB" \
    "$difftest" replay --impl "$tgt" --suite "$suite" --report-dir "$dir" \
    --segment 5000 --minimize-budget 50 "$@" 2>&1 | tee "$log"
}
replay temurin25 suite25.yaml replay-temurin25.txt reports
replay espresso25 suite25.yaml replay-espresso25.txt reports
# espresso21 in two shards, each with its own report, merged with `difftest report --merge`.
for k in 1 2; do
  replay espresso21 suite21.yaml "replay-espresso21-$k.txt" "reports21-$k" --shard "$k/2"
done
"$difftest" report --merge reports21-1/espresso21-vs-temurin21.json \
  reports21-2/espresso21-vs-temurin21.json --report-dir reports | tee replay-espresso21.txt
for tgt in temurin25-int temurin25-c2 temurin25-xcomp; do
  replay "$tgt" suite25.yaml "replay-$tgt.txt" reports
done
