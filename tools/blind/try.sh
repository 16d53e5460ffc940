#!/bin/sh
# Send messages through the offline brain as one conversation and print the
# transcript with the reader's log: try.sh "msg 1" "msg 2" ...
# (target/blind/try-set.md; needs `--features fixtures`.)
dir=$(mktemp -d)/try-set
mkdir -p "$dir"
for m in "$@"; do printf '%s\n#? -\n' "$m"; done > "$dir/01-try.txt"
cd "$(dirname "$0")/../.." || exit 1
ALFRED_BLIND_READER_LOG=1 ALFRED_BLIND_DIR="$dir" cargo test -q --features fixtures --test blind -- --ignored transcript_of_an_unseen_set >/dev/null 2>&1
sed -n '/^### /,$p' target/blind/try-set.md | grep -v '^expected: \|^status: '
