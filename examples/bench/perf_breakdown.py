#!/usr/bin/env python3
"""Splits `perf script -F pid,tid,comm,time,ip,sym,dso -G` samples of a record (profile.sh)
by process, thread and code: the table of docs/benchmarks.md, "Where the time goes".

Usage: perf_breakdown.py SAMPLES [FROM TO]  -- FROM/TO: perf timestamps bounding the window
(e.g. generation: from the first worker's first sample to the first rerun worker's, both in
the process list printed first). The supervisor is the process of the first sample."""
import collections
import re
import sys

LINE = re.compile(r'\s*(\S.*?)\s+(\d+)/(\d+)\s+([\d.]+):\s+([0-9a-f]+)\s+(.*)\((.*)\)\s*$')


def kind(supervisor, pid, comm, dso):
    if pid == supervisor:
        return 'supervisor: ' + ('difftest' if 'difftest' in dso else dso.split('/')[-1])
    if comm.startswith('C1') or comm.startswith('C2'):
        return 'worker: JIT compiler thread'
    if comm.startswith('VM Thread'):
        return 'worker: GC and safepoints (VM Thread)'
    if not comm.startswith('difftest-java'):
        return 'worker: other threads'
    if 'JIT' in dso or 'perf-' in dso:
        return 'worker main: Java code (compiled or interpreted)'
    if 'libjvm' in dso:
        return 'worker main: JVM runtime (class loading, linking, lookups)'
    if 'difftest' in dso:
        return 'worker main: Rust (JSON, pipes, JNI)'
    if 'kallsyms' in dso:
        return 'worker main: kernel'
    return 'worker main: ' + dso.split('/')[-1]


def main():
    path = sys.argv[1]
    lo, hi = (float(sys.argv[2]), float(sys.argv[3])) if len(sys.argv) > 3 else (0, 1e18)
    rows = [m.groups() for m in map(LINE.match, open(path)) if m]
    supervisor = rows[0][1] if rows else ''
    spans = {}
    for _, pid, _, t, *_ in rows:
        first, last, n = spans.get(pid, (float(t), float(t), 0))
        spans[pid] = (first, float(t), n + 1)
    print('process   samples  first      last')
    for pid, (first, last, n) in sorted(spans.items(), key=lambda p: p[1][0]):
        print(f'{pid:>8} {n:8} {first:10.1f} {last:10.1f}')
    kinds, symbols, main_thread, total = collections.Counter(), collections.Counter(), 0, 0
    for comm, pid, _, t, _, sym, dso in rows:
        if not lo <= float(t) < hi:
            continue
        total += 1
        k = kind(supervisor, pid, comm, dso)
        kinds[k] += 1
        if k.startswith('worker main'):
            main_thread += 1
            if 'Java code' in k or 'JVM runtime' in k:
                symbols[sym.strip()] += 1
    print(f'\n{total} samples')
    for k, n in kinds.most_common():
        print(f'{100 * n / total:5.1f} %  {k}')
    print('\nworker main thread, top symbols (% of that thread)')
    for s, n in symbols.most_common(25):
        print(f'{100 * n / max(main_thread, 1):5.1f} %  {s[:120]}')


main()
