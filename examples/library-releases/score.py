#!/usr/bin/env python3
"""Scores a run of the library pairs against the triage tables of this folder's README and its
runs*/triage.tsv files: each new cause row of RUN_DIR/ID/report/*.json is matched to a triaged
row (same id, else same method and label) and so to the documented changes that row links to;
rows that match nothing are listed.
usage: score.py RUN_DIR  (RUN_DIR/ID/report/*.json)"""
import glob, json, os, re, sys, yaml
root = os.path.dirname(os.path.abspath(__file__))
pairs = yaml.safe_load(open(f'{root}/pairs.yaml'))['pairs']
readme = open(f'{root}/README.md').read()
run = sys.argv[1]

def short(callee):
    m = re.match(r'([\w.$]+)\.([\w<>$]+)\(', callee)
    if not m: return callee
    cls = m.group(1).split('.')[-1]
    return f'{cls}.{m.group(2)}'

# old triage: per pair, rows: id, method, label, triage, items
old = {}
sections = re.split(r'\n### ', readme)
for p in pairs:
    pid = p['id']
    keys = {c['item'].split('/', 1)[1]: c for c in p['changes']}
    sec = next((s for s in sections if s.startswith(f'{pid}:')), '')
    rows = []
    for line in sec.splitlines():
        m = re.match(r'\| `([cg]-[0-9a-f]+)` `([^`]+)`.*?\| (\w+) \| (\d+) \| (\w+) \| (.*)\|$', line)
        if not m: continue
        rid, meth, label, tests, triage, why = m.groups()
        items = [k for k in keys if re.search(r'(?<![\w-])' + re.escape(k) + r'(?![\w-])', why)]
        rows.append(dict(id=rid, method=meth.split('(')[0], label=label, triage=triage, items=items))
    old[pid] = (rows, keys)

# later triage: every runs*/triage.tsv beside this script (pair, row id, verdict, item, evidence),
# matched by id only
for tsv in sorted(glob.glob(f'{root}/runs*/triage.tsv')):
    for line in open(tsv).read().splitlines()[1:]:
        f = line.split('\t')
        if len(f) < 4 or f[0] not in old: continue
        items = [] if f[3] == '-' else [i.split('/', 1)[1] for i in f[3].split(',') if '/' in i]
        old[f[0]][0].append(dict(id=f[1], method=None, label=None, triage=f[2], items=items))

tot = {'tune': [0, 0], 'measure': [0, 0]}
for p in pairs:
    pid = p['id']
    rows, keys = old[pid]
    files = glob.glob(f'{run}/{pid}/report/*.json')
    if not files:
        print(f'## {pid}: no report'); continue
    d = json.load(open(files[0]))
    new = [c for c in d['causes'] if c['status'] == 'new' and c['label'] != 'dependency']
    found = set(); untriaged = []
    print(f'## {pid}: {len(new)} new rows')
    for c in new:
        meths = {short(x['callee']) for x in c['callees']}
        by_id = [r for r in rows if r['id'] == c['id'] or any(x['group'] == r['id'] for x in c['callees'])]
        by_m = [r for r in rows if r['method'] in meths and r['label'] == c['label']]
        match = by_id or by_m
        how = 'id' if by_id else ('method' if by_m else '-')
        items = sorted({i for r in match for i in r['items'] if r['triage'] == 'real'})
        found |= set(items)
        triage = sorted({r['triage'] for r in match})
        print(f"  {c['id']} {c['label']:<14} {c['tests']:>6} {'/'.join(sorted(meths))[:70]:<70} match={how} {triage} {items} :: {c.get('change','')[:80]}")
        if not match: untriaged.append(c['id'])
    for half in ('tune', 'measure'):
        reach = [k for k, c in keys.items() if c['half'] == half and c['reachable'] is True]
        f = [k for k in reach if k in found]
        tot[half][0] += len(f); tot[half][1] += len(reach)
        print(f'  {half}: found {len(f)}/{len(reach)} {f}')
    print(f'  untriaged rows: {untriaged}')
for half, (f, n) in tot.items():
    print(f'{half}: {f}/{n} = {100*f/max(n,1):.0f} %')
