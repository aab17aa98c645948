#!/usr/bin/env bash
# The benchmarks behind docs/benchmarks.md (workers), side by side in one run on one
# machine: workers, record (shortened: 30 s, 3 reruns), replay (40,000 tests, 1 and 2 jobs).
# Output: bench.txt in this folder.
set -uo pipefail
cd "$(dirname "$0")"
# The bench commands are behind the cargo feature `bench` (off by default): without DIFFTEST,
# the release binary is built with it first.
if [ -z "${DIFFTEST:-}" ]; then
  (cd ../.. && cargo build --release --features bench) || exit 2
fi
difftest=${DIFFTEST:-../../target/release/difftest}
{
  echo "# $(date -u +%F) $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
  "$difftest" bench workers --impl temurin17,temurin21
  "$difftest" bench record --impl temurin17 --time-limit 30 --reruns 3 -j 2
  "$difftest" bench replay --ref temurin17 --impl temurin21 --tests 40000
} 2>&1 | tee bench.txt
