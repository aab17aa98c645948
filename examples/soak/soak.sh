#!/usr/bin/env bash
# The soak of issue 31: CYCLES record/replay/accept cycles on the fixture library
# (examples/fixture-lib: record on release 1, replay on release 2, accept one new group),
# with random kills and concurrent writers, and a check after every cycle that nothing the
# gate reads is torn or lost.
#
# Each cycle draws one disturbance:
#   term-sup / kill-sup      SIGTERM or SIGKILL of the supervisor at a random moment
#   kill-worker / term-worker SIGKILL or SIGTERM of one of its workers at a random moment
#   two-replays              two replays into one report folder at once
#   two-accepts              two accepts of different groups at once
#   record-under-replay      a record onto the suite a running replay reads
#   full-disk                suite, reports and accepted list on a small, nearly full tmpfs
#   none                     nothing (every record is onto the existing suite)
# and after it checks:
#   - the suite (if present) passes `suite stats`;
#   - the accepted list (if present) parses, is sealed, and holds every entry an accept
#     reported as written;
#   - each report set is absent or complete (JSON, Markdown, HTML, JUnit) and of one run;
#   - an uninterrupted replay's exit code agrees with its report (0: no new group);
#   - no worker of this script's binary is left running, no panic (exit 101);
#   - no `*.tmp` left behind, and no `*.lock` still held, once every process ended.
#
# Usage: nice bash examples/soak/soak.sh [CYCLES] (default 200). SOAK_RESET=N removes the
# accepted list every N cycles (so accepts go on once every group was accepted); SOAK_DELAY
# is the latest moment of a kill in hundredths of a second (default 600); SOAK_TIME_LIMIT the
# record's --time-limit in seconds (default 2; more on a loaded machine). DIFFTEST names the binary
# (default: a copy of target/release/difftest, so a rebuild does not change it mid-run).
# Prints one line per cycle and a summary; exit 1 if anything was lost, torn or left over.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"

cycles="${1:-200}"
work="$(mktemp -d /tmp/difftest-soak-XXXXXX)"
full="$work/full"
cleanup() {
  mountpoint -q "$full" 2>/dev/null && umount "$full"
  rm -rf "$work"
}
trap cleanup EXIT
difftest="$work/bin/difftest"
mkdir -p "$work/bin"
cp "${DIFFTEST:-$repo/target/release/difftest}" "$difftest"

# --- the fixture library, both releases, as targets soak-v1 and soak-v2 -------------------
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
mkdir -p "$work/targets"
for v in v1 v2; do
  javac --release 11 -d "$work/classes-$v" "$repo"/examples/fixture-lib/$v/example/lib/*.java
  printf 'name: soak-%s\ndescription: fixture library %s\njdk:\n  path: %s\nclasspath:\n  - path: %s\n' \
    "$v" "$v" "$java_home" "$work/classes-$v" > "$work/targets/soak-$v.yaml"
done
export DIFFTEST_TARGETS="$work/targets"
# Left out: the method that hangs and the one that exits on release 2 (a replay of them
# takes a minute of timeouts and restarts; the hostile campaign covers both).
printf 'example.lib.Calculator.twice*\nexample.lib.Calculator.checked*\n' > "$work/omit.txt"
unset CI

# --- a small tmpfs for the full disk (skipped when mounting is refused) -----------------
mkdir -p "$full"
if mount -t tmpfs -o size=4m tmpfs "$full" 2>/dev/null; then
  have_tmpfs=1
else
  have_tmpfs=0
  echo "soak: cannot mount a tmpfs (not root?): the full-disk cycles are skipped"
fi

written="$work/written-ids"   # "LIST ID" for every accept that said it wrote an entry
: > "$written"
counts="$work/counts"; : > "$counts"
cycle=0 kills=0 lost=0 panics=0 leftovers=0
note() { echo "$1" >> "$counts"; }
fail() { lost=$((lost + 1)); echo "  LOST (cycle $cycle): $*"; }

# Workers of this script's binary whose supervisor $1 names them.
workers_of() { pgrep -f -- "^$difftest __worker --parent=$1( |$)" || true; }

# Sends signal $2 to supervisor $1 or one of its workers ($3: sup|worker) after a random
# moment up to $5 hundredths of a second; writes what it did into $4.
disturb() {
  local sup="$1" sig="$2" who="$3" out="$4" max="$5"
  sleep "$(awk -v r="$RANDOM" -v m="$max" 'BEGIN { printf "%.2f", r % m / 100 }')"
  if [ "$who" = sup ]; then
    kill -"$sig" "$sup" 2>/dev/null && echo "$sig supervisor" > "$out"
  else
    mapfile -t pids < <(workers_of "$sup")
    if [ "${#pids[@]}" -gt 0 ]; then
      kill -"$sig" "${pids[RANDOM % ${#pids[@]}]}" 2>/dev/null && echo "$sig worker" > "$out"
    fi
  fi
}

# Runs `difftest ARGS` in the background, logging to $work/log.N; sets $spid and $slog.
nlog=0
start() {
  nlog=$((nlog + 1))
  slog="$work/log.$nlog"
  "$difftest" "$@" > "$slog" 2>&1 &
  spid=$!
}

# Waits for pid $1 and checks it: no panic; its workers gone. Sets $rc.
finish() {
  local pid="$1" log="$2"
  wait "$pid"; rc=$?
  if [ "$rc" -eq 101 ] || grep -q "panicked" "$log"; then
    panics=$((panics + 1)); echo "  PANIC: $(grep -m1 panicked "$log")"
  fi
  sleep 0.3
  local left
  left="$(workers_of "$pid" | wc -l)"
  if [ "$left" -gt 0 ]; then
    leftovers=$((leftovers + left)); echo "  LEFTOVER workers of $pid"
    workers_of "$pid" | xargs -r kill -9
  fi
}

# Records, when an accept said it wrote an entry: its id, against list $1.
remember_accept() {
  local list="$1" id="$2" log="$3" rc="$4"
  if [ "$rc" -eq 0 ] && grep -q "^accepted" "$log"; then echo "$list $id" >> "$written"; fi
}

# Runs one command with disturbance $1 (none|term-sup|kill-sup|kill-worker|term-worker).
run_disturbed() {
  local how="$1"; shift
  # An accept takes a tenth of a second, a record or replay several seconds.
  local max="${SOAK_DELAY:-600}"
  [ "$1" = accept ] && max=15
  start "$@"
  local pid="$spid" log="$slog" d=""
  case "$how" in
    term-sup) disturb "$pid" TERM sup "$work/did" "$max" & d=$! ;;
    kill-sup) disturb "$pid" KILL sup "$work/did" "$max" & d=$! ;;
    kill-worker) disturb "$pid" KILL worker "$work/did" "$max" & d=$! ;;
    term-worker) disturb "$pid" TERM worker "$work/did" "$max" & d=$! ;;
  esac
  finish "$pid" "$log"
  if [ -n "$d" ]; then kill "$d" 2>/dev/null; wait "$d" 2>/dev/null; fi
  if [ -s "$work/did" ]; then kills=$((kills + 1)); note "kill $(cat "$work/did")"; fi
  rm -f "$work/did"
  last_log="$log"
}

# The new groups of the report in $1, one id a line.
new_groups() {
  python3 - "$1" <<'EOF' 2>/dev/null
import json, sys
r = json.load(open(sys.argv[1]))
for g in r.get("groups", []):
    if g.get("status") == "new":
        print(g["id"])
EOF
}

# --- the checks after each cycle ----------------------------------------------------------
check_suite() {
  local suite="$1"
  [ -e "$suite" ] || return 0
  if ! "$difftest" suite stats "$suite" > "$work/stats.log" 2>&1; then
    fail "suite $suite: $(tail -1 "$work/stats.log")"
  fi
}

check_list() {
  local list="$1"
  if [ ! -e "$list" ]; then
    if grep -q "^$list " "$written"; then fail "accepted list $list is gone"; fi
    return 0
  fi
  python3 - "$list" "$written" <<'EOF' || fail "accepted list $list: see above"
import re, sys, yaml
path, written = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
lines = text.rstrip("\n").split("\n")
if not re.fullmatch(r"# sum: xxh3 [0-9a-f]{16}", lines[-1]):
    sys.exit(print(f"  not sealed: last line {lines[-1]!r}"))
doc = yaml.safe_load(text)
ids = {e.get("group") or e.get("cause", {}).get("id") for e in doc.get("accepted") or []}
ids |= set(re.findall(r"\b[gc]-[0-9a-f]{6}\b", text))
missing = [i for l in open(written) for p, i in [l.split()] if p == path and i not in ids]
if missing:
    sys.exit(print(f"  entries reported written are gone: {missing}"))
EOF
}

# A report set: the four files all present or all absent, and of one run: the Markdown's
# summary row (with the run's seconds), the HTML's counts and the JUnit's test count are the
# JSON's.
check_reports() {
  local dir="$1" pending stem
  [ -d "$dir" ] || return 0
  # A writer killed between its renames leaves a journal (or, before its commit point,
  # staged files): the next reader of the set finishes it. Be that reader, as a replay,
  # `report` or `accept` would, then check the set.
  pending="$(find "$dir" -maxdepth 1 \( -name '*.journal' -o -name '.*.staged' \) 2>/dev/null)"
  for stem in $(echo "$pending" | sed -E 's#.*/\.?##; s/\.(journal|json\.staged|md\.staged|html\.staged|junit\.xml\.staged)$//' | sort -u); do
    note "settled $( [ -e "$dir/$stem.journal" ] && echo journal || echo staged)"
    "$difftest" report --merge "$dir/$stem.json" --report-dir "$work/settled" -q >/dev/null 2>&1
    rm -rf "$work/settled"
  done
  if [ -n "$(find "$dir" -maxdepth 1 \( -name '*.journal' -o -name '.*.staged' \) 2>/dev/null)" ]; then
    fail "report set in $dir: a journal or staged file left after a reader settled it"
  fi
  python3 - "$dir" <<'EOF' || fail "report set in $dir: see above"
import glob, json, os, re, sys
d = sys.argv[1]
exts = ("json", "md", "html", "junit.xml")
stems = {re.sub(r"\.(json|md|html|junit\.xml)$", "", os.path.basename(p))
         for p in glob.glob(os.path.join(d, "*-vs-*.*")) if not p.endswith(".lock")}
bad = False
for s in sorted(stems):
    have = [e for e in exts if os.path.exists(os.path.join(d, f"{s}.{e}"))]
    if len(have) != 4:
        print(f"  {s}: only {have}"); bad = True; continue
    text = {e: open(os.path.join(d, f"{s}.{e}"), encoding="utf-8").read() for e in exts}
    n = json.loads(text["json"])["summary"]
    row = (f"| {n['tests']} | {n['passed']} | {n['differing']} | {n['accepted']} | "
           f"{n['message_only']} | {n['unstable']} | {n['groups']} | {n['seconds']:.1f} |")
    counts = f"{n['tests']} tests, {n['passed']} passed, {n['differing']} differing, {n['accepted']} accepted"
    if row not in text["md"]:
        print(f"  {s}: the Markdown is not the JSON's run (no row {row})"); bad = True
    if counts not in text["html"]:
        print(f"  {s}: the HTML is not the JSON's run (no '{counts}')"); bad = True
    if f'tests="{n["tests"]}"' not in text["junit.xml"]:
        print(f"  {s}: the JUnit is not the JSON's run"); bad = True
sys.exit(1 if bad else 0)
EOF
}

check_leftovers() {
  local dir stray
  for dir in "$@"; do
    [ -d "$dir" ] || continue
    stray="$(find "$dir" -name '*.tmp' 2>/dev/null)"
    if [ -n "$stray" ]; then fail "temporaries left: $stray"; rm -f $stray; fi
    while read -r lock; do
      [ -n "$lock" ] || continue
      flock -n "$lock" true || fail "lock still held: $lock"
    done < <(find "$dir" -name '*.lock' 2>/dev/null)
  done
  local orphans
  orphans="$(pgrep -f -- "^$difftest " || true)"
  if [ -n "$orphans" ]; then
    leftovers=$((leftovers + 1)); echo "  LEFTOVER processes: $orphans"
    echo "$orphans" | xargs -r kill -9
  fi
}

# --- one cycle -----------------------------------------------------------------------------
# record (onto the existing suite) → replay → accept, in folder $1, disturbed by $2.
cycle_in() {
  local dir="$1" how="$2" seed="$3"
  local suite="$dir/oracles/soak-v1.yaml.zst" list="$dir/oracles/soak-v1.accepted.yaml"
  local reports="$dir/reports" report="$dir/reports/soak-v2-vs-soak-v1.json"
  local rec=(record --impl soak-v1 --packages example.lib --time-limit "${SOAK_TIME_LIMIT:-2}" --output-limit 200
    --reruns 1 --timeout 2 --jobs 1 --seed "$seed" --quiet --omit "$work/omit.txt" -o "$suite")
  local rep=(replay --impl soak-v2 --suite "$suite" --report-dir "$reports" --no-minimize
    --timeout 2 --jobs 1 --quiet)
  case "$how" in
    two-replays)
      run_disturbed none "${rec[@]}"
      start "${rep[@]}"; p1=$spid l1=$slog; start "${rep[@]}"; p2=$spid l2=$slog
      finish "$p1" "$l1"; r1=$rc; finish "$p2" "$l2"; r2=$rc
      note "rc replay $r1"; note "rc replay $r2"
      ;;
    record-under-replay)
      [ -e "$suite" ] || run_disturbed none "${rec[@]}"
      start "${rep[@]}"; p1=$spid l1=$slog
      sleep "0.$((RANDOM % 9 + 1))"
      rec[16]="$((seed + 1000))"
      run_disturbed none "${rec[@]}"
      finish "$p1" "$l1"; note "rc replay-under-record $rc"
      if [ "$rc" -eq 0 ]; then
        # A PASS must be the verdict of the suite it checked: no new group in its report.
        [ -z "$(new_groups "$report")" ] || fail "replay passed with new groups in its report"
      fi
      ;;
    two-accepts)
      run_disturbed none "${rep[@]}"
      mapfile -t ids < <(new_groups "$report" | shuf -n 2)
      if [ "${#ids[@]}" -eq 2 ]; then
        start accept "${ids[0]}" --suite "$suite" --report-dir "$reports" --reason soak
        p1=$spid l1=$slog
        start accept "${ids[1]}" --suite "$suite" --report-dir "$reports" --reason soak
        p2=$spid l2=$slog
        finish "$p1" "$l1"; remember_accept "$list" "${ids[0]}" "$l1" "$rc"
        finish "$p2" "$l2"; remember_accept "$list" "${ids[1]}" "$l2" "$rc"
      fi
      ;;
    *)
      local recd=none repd=none accd=none
      # The record or the replay mostly (seconds long); the accept a tenth of the time.
      case $((RANDOM % 10)) in [0-4]) recd="$how" ;; [5-8]) repd="$how" ;; 9) accd="$how" ;; esac
      [ "$how" = full-disk ] && recd=none repd=none accd=none
      run_disturbed "$recd" "${rec[@]}"; note "rc record $rc"
      if [ "$recd" = none ] && [ "$how" != full-disk ] && [ "$rc" -ne 0 ]; then
        fail "an undisturbed record: exit $rc: $(tail -1 "$last_log")"
      fi
      run_disturbed "$repd" "${rep[@]}"; local reprc=$rc; note "rc replay $rc"
      if [ "$repd" = none ] && [ "$how" != full-disk ] && [ "$rc" -gt 1 ]; then
        fail "an undisturbed replay: exit $rc: $(tail -1 "$last_log")"
      fi
      if [ "$repd" = none ] && [ -e "$report" ] && { [ "$reprc" -eq 0 ] || [ "$reprc" -eq 1 ]; }; then
        local new; new="$(new_groups "$report" | wc -l)"
        if { [ "$reprc" -eq 0 ] && [ "$new" -gt 0 ]; } || { [ "$reprc" -eq 1 ] && [ "$new" -eq 0 ]; }; then
          fail "replay exit $reprc with $new new groups in its report"
        fi
      fi
      local id; id="$(new_groups "$report" | shuf -n 1)"
      if [ -n "$id" ]; then
        run_disturbed "$accd" accept "$id" --suite "$suite" --report-dir "$reports" --reason soak
        remember_accept "$list" "$id" "$last_log" "$rc"; note "rc accept $rc"
      fi
      ;;
  esac
}

fill_disk() {
  rm -f "$full/filler"
  local free; free="$(df --output=avail -B1 "$full" | tail -1)"
  local leave=$(( (RANDOM % 64) * 4096 ))
  if [ "$free" -gt "$leave" ]; then
    dd if=/dev/zero of="$full/filler" bs=4096 count=$(( (free - leave) / 4096 )) status=none 2>/dev/null
  fi
}

kinds=(none term-sup kill-sup kill-worker term-worker two-replays two-accepts record-under-replay full-disk)
while [ "$cycle" -lt "$cycles" ]; do
  cycle=$((cycle + 1))
  how="${kinds[RANDOM % ${#kinds[@]}]}"
  dir="$work/main"
  if [ "$how" = full-disk ]; then
    if [ "$have_tmpfs" -eq 0 ]; then how=none; else dir="$full"; fill_disk; fi
  fi
  mkdir -p "$dir"
  # Every SOAK_RESET cycles (default: never) the accepted list is removed on purpose, with
  # its entries in the book of accepts written, so later cycles have new groups to accept.
  if [ "${SOAK_RESET:-0}" -gt 0 ] && [ $((cycle % SOAK_RESET)) -eq 0 ]; then
    rm -f "$dir/oracles/soak-v1.accepted.yaml"
    grep -v "^$dir/oracles/soak-v1.accepted.yaml " "$written" > "$written.new"; mv "$written.new" "$written"
  fi
  before=$lost
  cycle_in "$dir" "$how" "$cycle"
  [ "$how" = full-disk ] && rm -f "$full/filler"
  check_suite "$dir/oracles/soak-v1.yaml.zst"
  check_list "$dir/oracles/soak-v1.accepted.yaml"
  check_reports "$dir/reports"
  check_leftovers "$dir/oracles" "$dir/reports"
  note "how $how"
  printf 'cycle %d %-20s %s\n' "$cycle" "$how" "$([ "$lost" -eq "$before" ] && echo ok || echo LOST)"
done

echo
echo "soak: $cycles cycles, $kills kills ($(grep -c '^kill' "$counts") signals delivered), $lost lost or torn, $panics panics, $leftovers left running"
echo "accepts reported written: $(wc -l < "$written"); disturbances:"
grep '^how' "$counts" | sort | uniq -c | sed 's/^/  /'
echo "exit codes:"
grep '^rc' "$counts" | sort | uniq -c | sed 's/^/  /'
echo "signals:"
grep '^kill' "$counts" | sort | uniq -c | sed 's/^/  /'
[ "$lost" -eq 0 ] && [ "$panics" -eq 0 ] && [ "$leftovers" -eq 0 ]
