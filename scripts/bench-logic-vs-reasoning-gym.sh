#!/usr/bin/env bash
# Side-by-side throughput of verigym's logic envs and the matching
# reasoning-gym tasks, in one run on this machine: items per CPU-second for
# generation and for verification of a correct answer, and our/their ratio.
#
#   bash scripts/bench-logic-vs-reasoning-gym.sh [SECONDS] [PEER_SCALE]
#
# SECONDS: CPU seconds per measurement on our side (default 2).
# PEER_SCALE: multiplies the peer's item counts (default 1; ~2 min of peer CPU).
# Environment: PEERS_VENV (default /work/.peers-venv, made by
# ../shared/bench/setup-peers.sh), PEER_SCRIPT (default
# ../shared/bench/reasoning_gym_peer.py), OURS_BIN (a prebuilt logic_vs_peer
# example, to skip the cargo build), CARGO_TARGET_DIR as usual.
#
# Both sides count CPU time of their own process/thread (ours:
# /proc/thread-self/schedstat; theirs: time.process_time), so load from other
# processes inflates neither; the load average is printed with the table.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-2}
scale=${2:-1}
venv=${PEERS_VENV:-/work/.peers-venv}
peer=${PEER_SCRIPT:-../shared/bench/reasoning_gym_peer.py}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# reasoning-gym task, its item count, our env@preset (closest match).
# Counts stay at or under 1,000: the peer's rate falls as it holds more
# items (Python's collector walks them all; graph_color does 46k items per
# CPU-second with 1,000 and 15-26k with 2,500-5,000), so small counts give
# it its best rate.
pairs=(
  "sudoku 1000 logic/sudoku-v1@medium"
  "mini_sudoku 1000 logic/mini-sudoku-v1@easy"
  "futoshiki 100 logic/futoshiki-v1@medium"
  "zebra_puzzles 200 logic/zebra-v1@medium"
  "knights_knaves 1000 logic/knights-knaves-v1@easy"
  "countdown 1000 logic/countdown-v1@medium"
  "propositional_logic 1000 logic/sat-v2@medium"
  "graph_color 1000 logic/graph-coloring-v1@medium"
  # shortest_path is a grid path like maze-v1's; shortest-path-v1 is a
  # weighted graph, kept for reference (same count: one peer-$task.json).
  "shortest_path 1000 logic/shortest-path-v1@medium"
  "shortest_path 1000 logic/maze-v1@easy"
  "rearc 300 logic/arc-grid-v1@hard"
  "complex_arithmetic 1000 math/complex-v1@medium"
)

ours_bin=${OURS_BIN:-}
if [ -z "$ours_bin" ]; then
  cargo build -q --release -p verigym-envs --no-default-features --example logic_vs_peer
  ours_bin=${CARGO_TARGET_DIR:-target}/release/examples/logic_vs_peer
fi
ids=()
for pair in "${pairs[@]}"; do
  read -r _ _ id <<<"$pair"
  ids+=("$id")
done
echo "load before ours:   $(uptime)"
"$ours_bin" "$seconds" "${ids[@]}" >"$work/ours.jsonl"

echo "load before peer:   $(uptime)"
for pair in "${pairs[@]}"; do
  read -r task n _ <<<"$pair"
  n=$(python3 -c "print(max(20, int($n * $scale)))")
  "$venv/bin/python" "$peer" --tasks "$task" --n "$n" --out "$work/peer-$task.json" >/dev/null
done
echo "load after both:    $(uptime)"

python3 - "$work" "${pairs[@]}" <<'EOF'
import json, sys
work, pairs = sys.argv[1], [p.split() for p in sys.argv[2:]]
ours = {}
for line in open(f"{work}/ours.jsonl"):
    r = json.loads(line)
    ours[r["env"]] = r
head = (f"| reasoning-gym task | verigym env | rg gen/CPU-s | ours gen/CPU-s | gen ratio "
        f"| rg verify/CPU-s | ours verify/CPU-s | verify ratio |")
print(head)
print("|" + "---|" * 8)
for task, _, env in pairs:
    peer = json.load(open(f"{work}/peer-{task}.json"))["results"][0]
    o = ours[env]
    pg, pv = peer["gen_items_per_cpu_s"], peer["score_correct_per_cpu_s"]
    og, ov = o["gen_per_cpu_s"], o["verify_per_cpu_s"]
    ok = "" if peer["mean_score_correct"] > 0.99 else f" (rg scores its own answers {peer['mean_score_correct']:.2f})"
    # One decimal below 100x, so a ratio under 1 does not print as 0x.
    ratio = og / pg
    gen = f"{ratio:,.1f}x" if ratio < 100 else f"{ratio:,.0f}x"
    print(f"| {task} | `{env}` | {pg:,.1f} | {og:,.0f} | {gen} "
          f"| {pv:,.0f} | {ov:,.0f} | {ov / pv:,.1f}x{ok} |")
EOF
