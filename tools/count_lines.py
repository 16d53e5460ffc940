#!/usr/bin/env python3
"""Non-test lines of Rust in src/brain/offline at a commit: count_lines.py [REV].

Skips tests.rs, *_tests.rs and test_fixture.rs, and cuts each file at a
trailing `#[cfg(test)]` module. Prints the total (and with --files, each file)."""
import subprocess, sys
rev = next((a for a in sys.argv[1:] if not a.startswith('-')), 'HEAD')
files = subprocess.run(['git', 'ls-tree', '-r', '--name-only', rev, 'src/brain/offline'],
                       capture_output=True, text=True, check=True).stdout.split()
total = 0
rows = []
for f in files:
    name = f.rsplit('/', 1)[-1]
    if not f.endswith('.rs') or name == 'tests.rs' or name.endswith('_tests.rs') or name == 'test_fixture.rs':
        continue
    text = subprocess.run(['git', 'show', f'{rev}:{f}'], capture_output=True, text=True, check=True).stdout
    lines = text.splitlines()
    for i, l in enumerate(lines):
        if l.strip() == '#[cfg(test)]' and i + 1 < len(lines) and lines[i + 1].lstrip().startswith('mod '):
            lines = lines[:i]
            break
    rows.append((len(lines), f))
    total += len(lines)
if '--files' in sys.argv:
    for n, f in sorted(rows, reverse=True):
        print(f'{n:6} {f}')
print(total)
