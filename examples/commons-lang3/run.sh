#!/usr/bin/env bash
# The library-release experiment: record on Apache Commons Lang 3.12.0 (from Maven Central),
# replay on 3.17.0, both on Temurin 17. Output: record.txt, replay.txt and reports/ here.
set -uo pipefail
cd "$(dirname "$0")"
difftest=${DIFFTEST:-../../target/release/difftest}
"$difftest" targets install commons-lang3-3.12.0 commons-lang3-3.17.0
"$difftest" record --impl commons-lang3-3.12.0 --packages org.apache.commons.lang3 \
  --omit omit.txt --time-limit 60 --output-limit 30000 --reruns 5 --seed 312 \
  -o suite.yaml --no-progress 2>&1 | tee record.txt
"$difftest" replay --impl commons-lang3-3.17.0 --suite suite.yaml --report-dir reports 2>&1 \
  | tee replay.txt
