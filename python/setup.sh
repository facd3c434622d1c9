#!/usr/bin/env bash
# Builds the `verigym` Python package into a venv, with no manual steps:
#
#   python/setup.sh                 # venv .venv-py/ + maturin, pytest, ray; maturin develop
#   VERIGYM_PY_RAY=0 python/setup.sh   # the same without ray (its wheel is ~70 MB)
#   VERIGYM_PY_TRAINERS=0 python/setup.sh   # without the trainers (verl, trl, openrlhf:
#                                    # python/setup-trainers.sh, a cached ~6 GB venv)
#   VERIGYM_PY_PROTOCOLS=0 python/setup.sh  # without Gymnasium, PettingZoo, SkyRL-Gym
#                                    # (python/protocols-requirements.txt, ~30 s cold)
#   VERIGYM_PY_VERIFIERS=0 python/setup.sh  # without .venv-verifiers (verifiers 0.4 and
#                                    # python/verigym-prime: python/setup-verifiers.sh, 65-90 s cold)
#   .venv-py/bin/python -m pytest python/tests
#
# Idempotent: pip runs only when the pins below change; maturin rebuilds only
# what changed. The extension is built in the dev profile into the cargo
# target dir ($CARGO_TARGET_DIR, else target/), the profile `cargo test` uses,
# so CI does not compile the workspace twice.
# Cold cost on a 2-core machine: pip ~1 min (with ray), the first build of
# pyo3 + the extension ~1-2 min when the workspace is already built.
set -euo pipefail
cd "$(dirname "$0")/.."

MATURIN_VERSION="1.16.0"
PYTEST_VERSION="9.2.0"
RAY_VERSION="2.60.0"

venv="${VERIGYM_PY_VENV:-.venv-py}"
python="${PYTHON:-python3}"
pins="maturin==$MATURIN_VERSION pytest==$PYTEST_VERSION"
if [ "${VERIGYM_PY_RAY:-1}" != "0" ]; then
    pins="$pins ray==$RAY_VERSION"
fi

if [ ! -x "$venv/bin/python" ]; then
    echo "setup.sh: creating $venv with $("$python" --version)"
    "$python" -m venv "$venv"
fi
if [ "$(cat "$venv/.verigym-pins" 2>/dev/null)" != "$pins" ]; then
    echo "setup.sh: pip install $pins"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $pins
    echo "$pins" > "$venv/.verigym-pins"
fi

# The env-protocol packages: pinned, --no-deps, reinstalled only when the
# requirements file changes.
protocols="python/protocols-requirements.txt"
if [ "${VERIGYM_PY_PROTOCOLS:-1}" != "0" ] && ! cmp -s "$protocols" "$venv/.verigym-protocols"; then
    start=$(date +%s)
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$protocols"
    cp "$protocols" "$venv/.verigym-protocols"
    echo "setup.sh: protocol packages installed in $(($(date +%s) - start)) s"
fi

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
VIRTUAL_ENV="$(cd "$venv" && pwd)"
export VIRTUAL_ENV
"$venv/bin/maturin" develop --quiet --manifest-path python/Cargo.toml
"$venv/bin/python" -c 'import verigym; print("setup.sh: verigym", verigym.__version__, "with", len(verigym.list_envs()), "envs")'
if [ "${VERIGYM_PY_TRAINERS:-1}" != "0" ]; then
    bash python/setup-trainers.sh "$venv"
    if [ "${VERIGYM_PY_OPENENV:-1}" != "0" ]; then
        bash python/setup-openenv.sh "$venv"
    fi
fi
if [ "${VERIGYM_PY_VERIFIERS:-1}" != "0" ]; then
    bash python/setup-verifiers.sh "$venv"
fi
