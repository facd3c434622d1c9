#!/usr/bin/env bash
# The test command: every Rust test in the workspace, then the Python package
# (built by python/setup.sh into .venv-py/, same target dir and profile as
# cargo test, so nothing compiles twice) and its pytest suite, which also
# drives `verigym serve` from target/debug, and the user journey in tests/python
# (its Rust half, tests/user_journey.rs, runs with the facade crate).
#
#   scripts/test.sh                 # everything CI runs after fmt and clippy
#   VERIGYM_PY_RAY=0 scripts/test.sh   # without installing ray (its tests skip)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
bash python/setup.sh
.venv-py/bin/python -m pytest -q python/tests tests/python
