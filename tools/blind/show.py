#!/usr/bin/env python3
"""Show turns of a transcript: show.py RUN.md FILEPREFIX:TURN ...  (e.g. 02:6)."""
import re, sys
text = open(sys.argv[1]).read()
parts = re.split(r'(?m)^(?=### )', text)[1:]
for want in sys.argv[2:]:
    pre, t = want.split(':')
    for p in parts:
        head = p.splitlines()[0][4:]
        f, n = head.split(' · turn ')
        if f.startswith(pre) and n == t:
            print(p)
