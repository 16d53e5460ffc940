#!/usr/bin/env python3
"""Split two runs of one blind set into two halves for graders.

usage: split.py SET RUN_A.md RUN_B.md OUTDIR
Writes OUTDIR/SET-a and OUTDIR/SET-b, each with run-1.md and run-2.md (the
two runs in a random order, `path:` and `reader:` lines stripped), and
OUTDIR/KEY-SET saying which run is which.
"""
import random, re, sys
from pathlib import Path

def turns(md):
    text = Path(md).read_text()
    parts = re.split(r'(?m)^(?=### )', text)
    out = {}
    for p in parts[1:]:
        head = p.splitlines()[0]
        f = head[4:].split(' · ')[0]
        keep = [l for l in p.splitlines(keepends=True)
                if not l.startswith(('path: ', 'reader: ', 'intent: '))]
        out.setdefault(f, []).append(''.join(keep))
    return out

def main():
    name, a, b, outdir = sys.argv[1:5]
    ta, tb = turns(a), turns(b)
    files = sorted(ta)
    half = (len(files) + 1) // 2
    order = [a, b]
    random.shuffle(order)
    runs = {a: ta, b: tb}
    out = Path(outdir)
    for tag, chunk in (('a', files[:half]), ('b', files[half:])):
        d = out / f'{name}-{tag}'
        d.mkdir(parents=True, exist_ok=True)
        for i, src in enumerate(order, 1):
            body = ''.join(''.join(runs[src].get(f, [])) for f in chunk)
            (d / f'run-{i}.md').write_text(f'# Set {name}-{tag}, run {i}\n\n' + body)
    (out / f'KEY-{name}').write_text(f'run-1 = {order[0]}\nrun-2 = {order[1]}\n')

main()
