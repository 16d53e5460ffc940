#!/usr/bin/env python3
"""Sum graders' TSV lines: usage count.py FILE.tsv... (file turn grade asked generic note)."""
import sys
from collections import Counter
g, asked, generic, acted, acted_u = Counter(), 0, 0, 0, 0
for path in sys.argv[1:]:
    for line in open(path):
        cols = line.rstrip('\n').split('\t')
        if len(cols) < 5 or cols[2] not in 'UQMWX' or not cols[2]:
            continue
        grade = cols[2]
        g[grade] += 1
        a = cols[3].strip().lower() == 'yes'
        asked += a
        generic += cols[4].strip().lower() == 'yes'
        if not a:
            acted += 1
            acted_u += grade == 'U'
n = sum(g.values())
print(' '.join(f'{k}{g[k]}' for k in 'UQMWX'), f'n={n}',
      f'U+Q={100*(g["U"]+g["Q"])/max(n,1):.1f}%',
      f'act={acted_u}/{acted}={100*acted_u/max(acted,1):.1f}%',
      f'asked={asked}', f'generic={generic}')
