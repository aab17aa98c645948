#!/usr/bin/env bash
# The JDK experiment of the Randoop paper (section 3.3) with today's JDKs: record a suite on
# Temurin 17, replay it as a matrix on Temurin 21 and 25, the machine's Debian OpenJDK 17 and
# Debian's Zero VM. Output: suite.yaml, record.txt, replay.txt and reports/ in this folder.
set -uo pipefail
cd "$(dirname "$0")"
difftest=${DIFFTEST:-../../target/release/difftest}
"$difftest" targets install temurin17 temurin21 temurin25 openjdk17 openjdk17-zero
"$difftest" record --impl temurin17 --time-limit 60 --output-limit 20000 --reruns 5 \
  --seed 2007 -o suite.yaml --no-progress 2>&1 | tee record.txt
"$difftest" replay --impl temurin21,temurin25,openjdk17,openjdk17-zero --suite suite.yaml \
  --report-dir reports 2>&1 | tee replay.txt
