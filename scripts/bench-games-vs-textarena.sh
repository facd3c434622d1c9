#!/usr/bin/env bash
# Random-vs-random game speed, verigym vs TextArena, in one run (issue #7).
#
#   scripts/bench-games-vs-textarena.sh [--games N] [--json]
#
# Needs a Python venv with TextArena (pinned): VENV (default /work/.peers-venv)
#   python3 -m venv "$VENV" && "$VENV/bin/pip" install textarena==0.7.4
# Builds the verigym side (envs/examples/selfplay_speed.rs, release, without
# the WASM sandbox) first, outside the timing; then times both.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${VENV:-/work/.peers-venv}"
target="${CARGO_TARGET_DIR:-$root/target}"
if ! "$venv/bin/python" -c 'import textarena' 2>/dev/null; then
    echo "error: no TextArena in $venv; run: $venv/bin/pip install textarena==0.7.4" >&2
    exit 2
fi
(cd "$root" && cargo build --release -q -p verigym-envs --no-default-features --example selfplay_speed)
uptime >&2
exec "$venv/bin/python" "$root/scripts/bench-games-vs-textarena.py" \
    --ours "$target/release/examples/selfplay_speed" "$@"
