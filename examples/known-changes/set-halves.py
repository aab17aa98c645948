#!/usr/bin/env python3
"""Writes the `half:` line of every item of changes.yaml by the split rule of README.md.

An id listed in split-base.txt: SHA-256 of its UTF-8 bytes, low bit of the first byte,
0 -> tuning, 1 -> validation. Any other id (added after the split): validation.
The line goes right after the item's `pair:` line; the rest of the file is left as it is.
With --check nothing is written: the items whose half disagrees are listed, exit 1.
"""
import hashlib
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent


def base_ids():
    lines = (HERE / "split-base.txt").read_text(encoding="utf-8").splitlines()
    return {l.strip() for l in lines if l.strip() and not l.startswith("#")}


def half(item_id, base):
    if item_id not in base:
        return "validation"
    return "validation" if hashlib.sha256(item_id.encode("utf-8")).digest()[0] & 1 else "tuning"


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit("usage: set-halves.py [--check]")
    path = HERE / "changes.yaml"
    base = base_ids()
    out, wrong, current = [], [], None
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        m = re.match(r"- id: (\S+)\s*$", line)
        if m:
            current = m.group(1)
        if current and re.match(r"  half: ", line):
            continue  # rewritten after pair:
        out.append(line)
        if current and re.match(r"  pair: ", line):
            want = half(current, base)
            out.append(f"  half: {want}\n")
    new = "".join(out)
    old = path.read_text(encoding="utf-8")
    if check:
        olds = dict(re.findall(r"- id: (\S+)\n(?:  (?!half:).*\n)*?  half: (\S+)", old))
        for item_id in re.findall(r"^- id: (\S+)", old, re.M):
            if olds.get(item_id) != half(item_id, base):
                wrong.append(f"{item_id}: half {olds.get(item_id)}, the rule says {half(item_id, base)}")
        print("\n".join(wrong) if wrong else "every half follows the rule")
        sys.exit(1 if wrong else 0)
    if new != old:
        path.write_text(new, encoding="utf-8")
    counts = {}
    for item_id, pair in re.findall(r"^- id: (\S+)\n  pair: (\S+)", new, re.M):
        key = (pair, half(item_id, base))
        counts[key] = counts.get(key, 0) + 1
    for (pair, h), n in sorted(counts.items()):
        print(f"{pair} {h}: {n}")


if __name__ == "__main__":
    main()
