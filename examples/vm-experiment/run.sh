#!/usr/bin/env bash
# The VM experiment: one class library, other virtual machines. Record on Temurin 25 (and
# Temurin 21), replay on Espresso (GraalVM's Java on Truffle) over the same class library, and
# on the same Temurin 25 build in three HotSpot execution modes (interpreter only, C1+C2,
# -Xcomp). Output: suite25.yaml, suite21.yaml, record*.txt, replay*.txt, reports/.
set -uo pipefail
cd "$(dirname "$0")"
difftest=${DIFFTEST:-../../target/release/difftest}
"$difftest" targets install temurin21 temurin25 espresso21 espresso25 \
  temurin25-int temurin25-c2 temurin25-xcomp
"$difftest" record --impl temurin25 --time-limit 60 --output-limit 10000 --reruns 3 \
  --seed 2007 -o suite25.yaml --no-progress 2>&1 | tee record25.txt
"$difftest" record --impl temurin21 --time-limit 30 --output-limit 3000 --reruns 3 \
  --seed 2007 -o suite21.yaml --no-progress 2>&1 | tee record21.txt
# One target per replay, so each wall time (start-up included) is its own. Segments of 5,000
# tests let both cores work on a 10,000-test suite (one Espresso context per segment).
for tgt in temurin25 espresso25 temurin25-int temurin25-c2 temurin25-xcomp; do
  # Espresso's interpreter runs cold code 10-100x slower than HotSpot: a longer per-call timeout.
  timeout=5; [[ $tgt == espresso* ]] && timeout=60
  /usr/bin/time -f "$tgt: %e s wall, max RSS of one process %M KiB" \
    "$difftest" replay --impl "$tgt" --suite suite25.yaml --report-dir reports \
    --timeout "$timeout" --segment 5000 --minimize-budget 50 2>&1 | tee "replay-$tgt.txt"
done
/usr/bin/time -f "espresso21: %e s wall, max RSS of one process %M KiB" \
  "$difftest" replay --impl espresso21 --suite suite21.yaml --report-dir reports \
  --timeout 60 --segment 1500 --minimize-budget 50 2>&1 | tee replay-espresso21.txt
