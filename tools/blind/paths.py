#!/usr/bin/env python3
"""Join a transcript's `path:` lines with grades: usage paths.py RUN.md GRADES.tsv [PATH [GRADE]].
Without PATH: a table of grade counts per path. With PATH (and GRADE): those turns."""
import re, sys
from collections import Counter, defaultdict
md, tsv = sys.argv[1], sys.argv[2]
want = sys.argv[3] if len(sys.argv) > 3 else None
wgrade = sys.argv[4] if len(sys.argv) > 4 else None
text = open(md).read()
info = {}
for p in re.split(r'(?m)^(?=### )', text)[1:]:
    head = p.splitlines()[0][4:]
    f, t = head.split(' · turn ')
    path = re.search(r'(?m)^path: (.*)$', p)
    msg = re.search(r'(?m)^> (.*)$', p)
    reply = '\n'.join(l[4:] for l in p.splitlines() if l.startswith('    '))
    info[(f, int(t))] = (path.group(1) if path else '-', msg.group(1) if msg else '', reply)
table = defaultdict(Counter)
for line in open(tsv):
    c = line.rstrip('\n').split('\t')
    if len(c) < 5:
        continue
    key = (c[0], int(c[1]))
    if key not in info:
        continue
    path, msg, reply = info[key]
    table[path][c[2]] += 1
    table[path]['asked' if c[3] == 'yes' else 'acted'] += 1
    if want and path == want and (not wgrade or c[2] == wgrade):
        print(f'{c[0]}:{c[1]} [{c[2]} asked={c[3]}] > {msg}\n    {reply[:300]}\n    note: {c[5] if len(c)>5 else ""}\n')
if not want:
    for path, cnt in sorted(table.items()):
        print(f'{path:12}', ' '.join(f'{k}{cnt[k]}' for k in 'UQMWX'), f'acted={cnt["acted"]} asked={cnt["asked"]}')
