#!/usr/bin/env bash
# The prompt cache on a real llama.cpp server: runs the first six messages of
# busy-fortnight through ALFRED (a built alfred binary) against a freshly
# started llama-server, then prints per turn the prompt tokens, the tokens
# the server evaluated (its log's "prompt eval time … / N tokens") and the
# cached tokens the turn record kept.
#   LLAMA_SERVER=/path/llama-server MODEL=/path/gemma-3-270m-q4_k_m.gguf \
#   SLOTS=8 EXTRA=--swa-full tools/real-cache-check.sh ./target/debug/alfred NAME
# (local-servers.md in the shared references says how to build llama-server
# and fetch the model.) Writes /tmp/rs-NAME.jsonl and /tmp/rs-NAME.server.log.
set -eu
bin=$1; name=$2
here=$(cd "$(dirname "$0")/.." && pwd)
server=${LLAMA_SERVER:?set LLAMA_SERVER to a llama-server binary}
model=${MODEL:?set MODEL to a GGUF model}
template=${TEMPLATE:-$here/../shared/tools/gemma3.jinja}
log=/tmp/rs-$name.server.log
pkill -f "llama-server -m" || true; sleep 2
setsid nohup "$server" -m "$model" --host 127.0.0.1 --port 18080 -c 65536 -np "${SLOTS:-4}" --jinja \
  --chat-template-file "$template" -t 2 --alias gemma3-270m \
  --repeat-penalty 1.2 --frequency-penalty 0.8 --presence-penalty 0.8 -n 1024 ${EXTRA:-} \
  > "$log" 2>&1 < /dev/null &
for _ in $(seq 1 90); do curl -sf http://127.0.0.1:18080/v1/models >/dev/null 2>&1 && break; sleep 1; done
grep -v '^#' "$here/assets/scenarios/busy-fortnight.txt" | grep -v '^\s*$' | head -6 > "/tmp/rs-$name.txt"
data=$(mktemp -d)
OPENAI_API_KEY=local ALFRED_TIMEOUT_SECS=300 "$bin" --data-dir "$data" --llm openai \
  --base-url http://127.0.0.1:18080/v1 --model gemma3-270m run --new --json \
  --script "/tmp/rs-$name.txt" > "/tmp/rs-$name.jsonl" 2> "/tmp/rs-$name.err" || true
pkill -f "llama-server -m" || true
python3 - "$name" <<'PY'
import json, re, sys
name = sys.argv[1]
recs = [json.loads(l) for l in open(f'/tmp/rs-{name}.jsonl') if l.strip()]
evals = [int(n) for n in re.findall(r'prompt eval time =\s*[\d.]+ ms /\s*(\d+) tokens',
                                    open(f'/tmp/rs-{name}.server.log').read())]
def prompts(r):
    p = r.get('prompts', {})
    return [p[k] for k in ('understand', 'think') if p.get(k)] + p.get('act', []) \
        + ([p['reply']] if p.get('reply') else []) + p.get('summarize', [])
i, late = 0, []
for r in recs:
    calls = [c for p in prompts(r) for c in p.get('calls', [])]
    evaluated = sum(evals[i:i + len(calls)]); i += len(calls)
    sent = sum((c.get('usage') or {}).get('prompt_tokens', 0) for c in calls)
    cached = sum(p.get('cached_tokens') or 0 for p in prompts(r) if not p.get('cached_estimated'))
    print(f"turn {r['turn']} {r['status']:>6}: {len(calls)} calls, {sent} prompt tokens, "
          f"{evaluated} evaluated by the server, {cached} cached in the record")
    if 3 <= r['turn'] <= 6:
        late.append((sent, evaluated, cached))
if late:
    n = len(late)
    print('turns 3-6, per turn: %.0f prompt tokens, %.0f evaluated, %.0f cached' %
          tuple(sum(x[k] for x in late) / n for k in range(3)))
PY
