#!/usr/bin/env python3
"""Score difftest replay reports against changes.yaml.

    python3 match.py REPORT.json [REPORT.json ...]

Each report is a `difftest replay` JSON report (reports/TGT-vs-REF.json). The pair of a report
is read from its reference and target names (temurin17 / temurin21 / temurin25; any name
holding 17, 21 or 25). An item of that pair is found when a group, or a test with status
`differs` (or `message_only`, for items about exception messages; `unstable` never counts),
has a callee matching one of the item's globs and ref/tgt values matching its regexes;
`added`/`removed` items need kind `missing`, the others any other kind. A report recorded on the newer JDK and replayed on
the older one is used for `added` items (and the usual direction for `removed` ones); values
are then swapped back so `ref` always means the older JDK.
"""
import fnmatch, json, re, sys
import yaml

HERE = __file__.rsplit('/', 1)[0] if '/' in __file__ else '.'

def version(name):
    m = re.search(r'(17|21|25)', name)
    return m.group(1) if m else None

def matches(item, callee, ref, tgt):
    if not any(fnmatch.fnmatchcase(callee, g) for g in item['callees']):
        return False
    if item.get('ref') and not re.search(item['ref'], ref or ''):
        return False
    if item.get('tgt') and not re.search(item['tgt'], tgt or ''):
        return False
    return True

def main(paths):
    items = yaml.safe_load(open(HERE + '/changes.yaml'))
    found = {}
    pairs = set()
    for path in paths:
        rep = json.load(open(path))
        r, t = version(rep['reference']['name']), version(rep['target']['name'])
        if not r or not t or r == t:
            print(f'{path}: cannot tell the JDK pair', file=sys.stderr); continue
        older, newer = sorted([r, t], key=int)
        pair = f'{older}-{newer}'
        pairs.add(pair)
        swapped = int(r) > int(t)
        rows = [g for g in rep.get('groups', [])]
        rows += [x for x in rep.get('tests', []) if x.get('status') in ('differs', 'message_only')]
        for item in items:
            if item['pair'] != pair or item['id'] in found:
                continue
            want_missing = item['kind'] in ('added', 'removed')
            for row in rows:
                if 'callee' not in row:
                    continue
                kind = row.get('kind')
                if want_missing != (kind == 'missing'):
                    continue
                if row.get('status') == 'message_only' and 'message' not in item['title'] + item.get('note', ''):
                    continue
                ref, tgt = row.get('ref_value'), row.get('tgt_value')
                if swapped:
                    ref, tgt = tgt, ref
                if matches(item, row['callee'], ref, tgt):
                    found[item['id']] = (path, row.get('id'), row['callee'])
                    break
    for pair in sorted(pairs):
        mine = [i for i in items if i['pair'] == pair]
        hit = [i for i in mine if i['id'] in found]
        print(f'JDK {pair}: {len(hit)} of {len(mine)} items found')
        for i in mine:
            mark = 'FOUND ' if i['id'] in found else '      '
            where = f"  ({found[i['id']][2]})" if i['id'] in found else ''
            print(f"  {mark}{i['kind']:9} {i['id']}{where}")

if __name__ == '__main__':
    if len(sys.argv) < 2:
        print(__doc__); sys.exit(2)
    main(sys.argv[1:])
