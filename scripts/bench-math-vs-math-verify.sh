#!/usr/bin/env bash
# Side-by-side throughput of verigym's math verifier and Math-Verify 0.9.0 on
# the same Math-Verify-derived dev set, in one run on this machine:
# verifications per CPU-second and our/their ratio.
#
#   bash scripts/bench-math-vs-math-verify.sh [PASSES]
#
# PASSES: rounds over the file on each side (default 3; the median is kept).
# Environment: PEERS_VENV (default /work/.peers-venv, made by
# ../shared/bench/setup-peers.sh), PEER_SCRIPT (default
# ../shared/bench/math_verify_peer.py), CASES (default
# verifiers/data/math-verify/dev.jsonl), CARGO_TARGET_DIR as usual.
#
# Both sides count CPU time of their own thread/process (ours:
# /proc/thread-self/schedstat; theirs: time.process_time), so load from other
# processes inflates neither; the load average is printed with the result.
set -euo pipefail
cd "$(dirname "$0")/.."
passes=${1:-3}
venv=${PEERS_VENV:-/work/.peers-venv}
peer=${PEER_SCRIPT:-../shared/bench/math_verify_peer.py}
cases=${CASES:-verifiers/data/math-verify/dev.jsonl}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build -q --release -p verigym-verifiers --example math_vs_peer
ours_bin=${CARGO_TARGET_DIR:-target}/release/examples/math_vs_peer
echo "load before ours: $(uptime)"
"$ours_bin" "$cases" "$passes" >"$work/ours.json"
echo "load before peer: $(uptime)"
"$venv/bin/python" "$peer" --cases "$cases" --passes "$passes" --out "$work/peer.json" >/dev/null
echo "load after both:  $(uptime)"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
ours = json.load(open(f"{work}/ours.json"))
peer = json.load(open(f"{work}/peer.json"))
o, p = ours["verifications_per_cpu_s"], peer["verifications_per_cpu_s"]
print("| side | cases | agreement with expected | verifications/CPU-s |")
print("|---|---|---|---|")
print(f"| verigym | {ours['cases']} | {ours['agreement']} | {o:,.0f} |")
print(f"| Math-Verify {peer['math_verify_version']} | {peer['cases']} | {peer['agreement']} | {p:,.1f} |")
print(f"ratio: {o / p:,.0f}x")
PY
