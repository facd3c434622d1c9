#!/usr/bin/env bash
# stdin/stdout judging throughput, side by side in one run: verigym's StdioJudge (a
# solution's tests in one WASM instance while it stays as good as fresh, fuel and memory
# limits per test) against LiveCodeBench's runner
# (PyPI nvidia-livecodebench==26.3: `evaluate_generations`, a process pool over problems
# and a Process + Manager per solution running `testing_util.run_test`, unsandboxed), on
# the same problems and Python solutions (scripts/stdio_bench_problems.py: 10 problems x
# 3 solutions x 10 tests).
#
#   scripts/bench-stdio-vs-livecodebench.sh [WORKERS]
#
# Sets up the peer in a pinned venv ($LCB_VENV, default $VERIGYM_CACHE_DIR/peers/lcb or
# ~/.cache/verigym/peers/lcb; needs PyPI once), builds envs/examples/stdio_throughput.rs
# in release (CARGO_TARGET_DIR is honoured), then prints, for one worker and for WORKERS (default:
# one per core; verigym runs one process per worker on a shard of the problems):
# solutions per CPU-second and per wall-second for both, and the ratios. CPU seconds
# include every thread and child process; wall-clock figures depend on the load, printed
# first. PASSES (default 3) repeats the problem set.
set -euo pipefail
cd "$(dirname "$0")/.."
workers=${1:-$(nproc)}
passes=${PASSES:-3}
cache=${VERIGYM_CACHE_DIR:-$HOME/.cache/verigym}
venv=${LCB_VENV:-$cache/peers/lcb}
py="$venv/bin/python"
if ! "$py" -c 'import livecodebench.evaluation.compute_code_generation_metrics' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --no-deps nvidia-livecodebench==26.3
  "$venv/bin/pip" install --quiet numpy==2.3.5 tqdm==4.67.1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 scripts/stdio_bench_problems.py "$work/problems.json"

# PROFILE=dev reuses a test build (its dependencies, wasmtime included, are built at
# opt-level 2; the verigym crates in between are thin).
# STDIO_THROUGHPUT=PATH uses an example binary already built (e.g. the one
# `cargo test --workspace` leaves in target/debug/examples/).
profile=${PROFILE:-release}
if [ -n "${STDIO_THROUGHPUT:-}" ]; then
  ours=$STDIO_THROUGHPUT
else
  cargo build --profile "$profile" --quiet -p verigym-envs --example stdio_throughput
  target=${CARGO_TARGET_DIR:-target}
  dir=$([ "$profile" = dev ] && echo debug || echo "$profile")
  ours="$target/$dir/examples/stdio_throughput"
fi

echo "load: $(uptime)"
# ours_parallel N: N processes on shards; one JSON line with summed solutions and CPU and
# the wall time of the whole round.
ours_parallel() {
  local n=$1 start end i
  start=$(date +%s.%N)
  for ((i = 0; i < n; i++)); do
    "$ours" "$work/problems.json" --passes "$passes" --shard "$i/$n" >"$work/ours.$i" &
  done
  wait
  end=$(date +%s.%N)
  python3 - "$start" "$end" "$work"/ours.* <<'EOF'
import json, sys
start, end, files = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
rows = [json.loads(open(f).read()) for f in files]
print(json.dumps({"judge": "verigym", "processes": len(rows),
                  "solutions": sum(r["solutions"] for r in rows),
                  "passed": sum(r["passed"] for r in rows),
                  "wall_s": round(end - start, 3), "cpu_s": round(sum(r["cpu_s"] for r in rows), 3)}))
EOF
}
ratio() { # ratio OURS THEIRS FIELD
  python3 -c 'import json,sys; a=json.loads(sys.argv[1]); b=json.loads(sys.argv[2]); f=sys.argv[3]
rate=lambda r: r["solutions"] / r[f]
print(f"{rate(a):.1f} vs {rate(b):.1f} -> {rate(a) / rate(b):.1f}x")' "$1" "$2" "$3"
}
round() { # round LABEL N
  local label=$1 n=$2 a b
  a=$(ours_parallel "$n")
  b=$("$py" scripts/livecodebench_stdio_peer.py "$work/problems.json" --workers "$n" --passes "$passes")
  echo "== $label"
  echo "verigym:       $a"
  echo "livecodebench: $b"
  echo "solutions per CPU-second:  $(ratio "$a" "$b" cpu_s)"
  echo "solutions per wall-second: $(ratio "$a" "$b" wall_s)"
}
round "one worker" 1
round "$workers workers (verigym: one process per worker)" "$workers"
echo "load after: $(uptime)"
