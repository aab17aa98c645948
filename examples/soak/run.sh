#!/usr/bin/env bash
# Soak: record and replay in a loop on the default JDK scope while workers are killed at
# random with kill -9. Checks after every command that it wrote its output (a suite with
# tests; a report that replayed every test of the suite) and that none of its workers is
# left running. Usage: bash examples/soak/run.sh [MINUTES] (default 30); run it niced.
# SOAK_TIME_LIMIT sets the record's --time-limit (default 30 s).
# Prints one line per iteration and a summary; exit 1 if anything was lost or left over.
set -uo pipefail
cd "$(dirname "$0")/../.."

minutes="${1:-30}"
difftest="${DIFFTEST:-$PWD/target/release/difftest}"
work="$(mktemp -d /tmp/difftest-soak-XXXXXX)"
trap 'rm -rf "$work"' EXIT
end=$((SECONDS + minutes * 60))
iterations=0 killed=0 leftovers=0 lost=0

# Workers of supervisor $1 (their command line names it: __worker --parent=PID).
workers_of() { pgrep -f -- "__worker --parent=$1( |$)" || true; }

# Kills one random worker of supervisor $1 every 3-10 s while it runs; counts into $2.
killer() {
  local sup="$1" count="$2" n=0
  while kill -0 "$sup" 2>/dev/null; do
    sleep "$((RANDOM % 8 + 3))"
    mapfile -t pids < <(workers_of "$sup")
    if [ "${#pids[@]}" -gt 0 ]; then
      kill -9 "${pids[RANDOM % ${#pids[@]}]}" 2>/dev/null && n=$((n + 1))
    fi
    echo "$n" > "$count"
  done
}

# Runs difftest with a killer beside it; sets $rc and adds to the counters.
run() {
  local log="$1"; shift
  "$difftest" "$@" > "$log" 2>&1 &
  local sup=$!
  killer "$sup" "$work/killed" &
  local k=$!
  wait "$sup"; rc=$?
  wait "$k" 2>/dev/null
  killed=$((killed + $(cat "$work/killed" 2>/dev/null || echo 0)))
  rm -f "$work/killed"
  sleep 1
  local left
  left="$(workers_of "$sup" | wc -l)"
  if [ "$left" -gt 0 ]; then
    leftovers=$((leftovers + left))
    echo "LEFTOVER workers of $sup: $(workers_of "$sup" | tr '\n' ' ')"
    workers_of "$sup" | xargs -r kill -9
  fi
}

while [ "$SECONDS" -lt "$end" ]; do
  iterations=$((iterations + 1))
  seed=$iterations
  suite="$work/suite.yaml"
  rm -f "$suite"
  run "$work/record.log" record --impl temurin17 --time-limit "${SOAK_TIME_LIMIT:-30}" --reruns 2 --seed "$seed" \
    --no-progress -o "$suite"
  rec_rc=$rc
  tests="$(sed -n 's/^wrote .*: \([0-9]*\) regression tests\?.*/\1/p' "$work/record.log")"
  if [ "$rec_rc" -ne 0 ] || [ ! -s "$suite" ] || [ -z "$tests" ] || [ "$tests" -eq 0 ]; then
    lost=$((lost + 1))
    echo "LOST: record exit $rec_rc, tests '${tests}'"; tail -3 "$work/record.log"
    continue
  fi
  run "$work/replay.log" replay --impl temurin17 --suite "$suite" --report-dir "$work/reports" \
    --no-minimize
  rep_rc=$rc
  replayed="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["tests"])' \
    "$work/reports/temurin17-vs-temurin17.json" 2>/dev/null || echo "?")"
  if [ "$rep_rc" -gt 1 ] || [ "$replayed" != "$tests" ]; then
    lost=$((lost + 1))
    echo "LOST: replay exit $rep_rc, replayed '$replayed' of $tests"; tail -3 "$work/replay.log"
  fi
  echo "iteration $iterations: recorded $tests, replayed $replayed (exit $rep_rc: $(tail -1 "$work/replay.log" | cut -c1-110)); killed so far $killed"
done

echo "soak: $iterations iterations in $((SECONDS / 60)) min, $killed workers killed, $lost lost, $leftovers left running"
[ "$lost" -eq 0 ] && [ "$leftovers" -eq 0 ]
