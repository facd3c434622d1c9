#!/usr/bin/env bash
# Checks that `maturin develop` (the Python extension built alone) reuses the
# build of `cargo test --workspace`: every compilation unit of
# `cargo build -p verigym-py` except pyo3's and the extension's own must also
# be a unit of the workspace's test build (same package, features, profile).
# A unit that is not means a crate (and everything above it, often wasmtime)
# compiles twice; fix it with the "Not used directly" pins in python/Cargo.toml.
#
#   scripts/check-python-build-shared.sh     # exit 1 and the units when not shared
#
# Reads cargo's unit graph (an unstable flag, enabled here with
# RUSTC_BOOTSTRAP=1 for this read-only query); builds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
unit_graph() { RUSTC_BOOTSTRAP=1 cargo "$@" --unit-graph -Z unstable-options 2>/dev/null; }
unit_graph test --workspace --no-run > "$tmp/workspace.json"
unit_graph build -p verigym-py --features extension-module > "$tmp/python.json"
python3 - "$tmp/workspace.json" "$tmp/python.json" <<'PY'
import json, sys

def key(unit):
    profile = dict(unit["profile"])
    profile.pop("name", None)  # `test` and `dev` share artifacts when equal
    return (unit["pkg_id"], unit["target"]["name"], tuple(unit["target"]["kind"]),
            unit["mode"], tuple(unit["features"]), unit["platform"],
            json.dumps(profile, sort_keys=True))

workspace = {key(u) for u in json.load(open(sys.argv[1]))["units"]}
python = json.load(open(sys.argv[2]))["units"]
own = ("pyo3", "/python#")
missing = sorted(key(u) for u in python
                 if key(u) not in workspace and not any(s in u["pkg_id"] for s in own))
for pkg, target, kind, mode, features, _, _ in missing:
    name = pkg.split("#")[-1]
    print(f"not shared: {name} {target} ({'/'.join(kind)}, {mode}) features [{', '.join(features)}]")
print(f"{len(python)} units in the extension's build, {len(missing)} not shared with the workspace's")
sys.exit(1 if missing else 0)
PY
