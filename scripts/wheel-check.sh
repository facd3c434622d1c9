#!/usr/bin/env bash
# The Python package as PyPI would get it, without a checkout: `maturin sdist`
# (which must carry every Rust crate the extension needs, with the data they
# embed), a wheel built from that sdist alone, the wheel installed into a
# fresh venv, and a smoke test run outside the checkout: import verigym, make
# an env, generate cards (one from the embedded sample pool, one from the
# embedded HumanEval cases), score a reference answer 1.0, and find the data
# files the package ships (verl's agent loop YAML, the type stubs).
#
#   scripts/wheel-check.sh
#
# Offline once the build venv has the pinned maturin (python/setup.sh installs
# it into .venv-py/; otherwise this makes one in a temporary dir with pip):
# the wheel is built with --no-build-isolation from that venv and verigym has
# no Python dependencies, so pip needs no index. It builds in the dev profile
# into $CARGO_TARGET_DIR (else target/), so after `cargo test --workspace` and
# python/setup.sh only verigym's own crates compile again (the sdist is
# another workspace, at another path).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
python="${PYTHON:-python3}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"

maturin_version=$(sed -n 's/^requires = \["maturin==\([0-9.]*\)"\]$/\1/p' python/pyproject.toml)
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' python/pyproject.toml)
[ -n "$maturin_version" ] && [ -n "$version" ] || {
    echo "wheel-check: cannot read the maturin pin or the version in python/pyproject.toml" >&2
    exit 2
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build_venv="${VERIGYM_PY_VENV:-.venv-py}"
if [ "$("$build_venv/bin/maturin" --version 2>/dev/null)" != "maturin $maturin_version" ]; then
    build_venv="$work/build-venv"
    "$python" -m venv "$build_venv"
    "$build_venv/bin/pip" install --quiet --disable-pip-version-check "maturin==$maturin_version"
fi
build_venv="$(cd "$build_venv" && pwd)"

# 1. The sdist, and the crates it must hold.
"$build_venv/bin/maturin" sdist --manifest-path python/Cargo.toml --out "$work/dist"
sdist="$work/dist/verigym-$version.tar.gz"
tar -tzf "$sdist" >"$work/sdist-files"
for file in Cargo.toml Cargo.lock pyproject.toml \
    python/Cargo.toml envs/Cargo.toml verifiers/Cargo.toml sandbox/Cargo.toml import/Cargo.toml \
    envs/data/cards/math.jsonl envs/data/cards/code.jsonl \
    envs/data/humaneval/cases.jsonl envs/data/humaneval/extra_cases.jsonl envs/data/humaneval/LICENSE \
    verigym/__init__.py verigym/integrations/verl_agent.yaml; do
    grep -qxF "verigym-$version/$file" "$work/sdist-files" || {
        echo "wheel-check: $file is not in the sdist" >&2
        exit 1
    }
done

# 2. A wheel from the sdist alone (pip unpacks it in a temporary dir).
# The maturin backend runs the `maturin` program it finds on PATH.
# The sdist's crates sit at new paths, so cargo compiles them afresh (the
# dependencies are reused). The smoke test needs no optimised envs: building
# them without optimisation saves minutes of CI. (A CARGO_PROFILE_* variable
# cannot name a package with a dash in its name; --config can.)
no_opt="--config profile.dev.package.verigym-envs.opt-level=0"
no_opt="$no_opt --config profile.dev.package.verigym-verifiers.opt-level=0"
(cd "$work" && PATH="$build_venv/bin:$PATH" MATURIN_PEP517_ARGS="--profile dev $no_opt" \
    "$build_venv/bin/pip" wheel --quiet --disable-pip-version-check --no-deps --no-index \
    --no-build-isolation --wheel-dir "$work/wheels" "$sdist")
wheel=$(ls "$work"/wheels/verigym-"$version"-*.whl)

# 3. Installed into a fresh venv, then the smoke test from outside the checkout.
"$python" -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
cd "$work"
"$work/venv/bin/python" -I - "$work/venv" <<'EOF'
import os
import sys

import verigym
from verigym.integrations import verl

venv = os.path.realpath(sys.argv[1])
package = os.path.dirname(os.path.realpath(verigym.__file__))
assert package.startswith(venv + os.sep), f"verigym imported from {package}, not the venv"

env = verigym.make("math/arithmetic-v1@easy")
observation, info = env.reset(seed=0)
assert observation, "empty first observation"

# A generated env, the embedded sample pool and the embedded HumanEval cases.
for env_id in ["math/arithmetic-v1@easy", "math/dataset-v1", "logic/sudoku-v1@easy"]:
    [card] = verigym.generate(env_id, 1, seed=3)
    env = verigym.make(card["env_id"], card["config"])
    env.reset(card=card)
    [scored] = verigym.score([card], [env.oracle_action()])
    assert scored["reward"] == 1.0, (env_id, scored)
[card] = verigym.generate("code/humaneval-v2", 1, seed=3)
assert card["task"], card

yaml = verl.agent_config_path()
assert os.path.realpath(yaml).startswith(venv + os.sep), yaml
assert "verigym" in open(yaml).read(), yaml
for shipped in ["py.typed", "_verigym.pyi"]:
    assert os.path.isfile(os.path.join(package, shipped)), shipped
print(f"wheel-check: verigym {verigym.__version__} from the sdist, {len(verigym.list_envs())} envs")
EOF
echo "wheel-check: $(basename "$sdist") ($(du -k "$sdist" | cut -f1) KiB) and $(basename "$wheel") passed in $(($(date +%s) - start)) s"
