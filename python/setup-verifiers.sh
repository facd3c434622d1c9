#!/usr/bin/env bash
# Makes .venv-verifiers/: verifiers 0.4.0 (python/verifiers-requirements.txt),
# the verigym extension python/setup.sh built, and python/verigym-prime
# (editable), so python/tests/test_verifiers.py runs verifiers' own `vf-eval`
# on the verigym taskset. verifiers (96 packages) conflicts with the trainers
# venv, hence a venv of its own. Called by python/setup.sh after the
# extension is built; skip with VERIGYM_PY_VERIFIERS=0.
#
#   python/setup-verifiers.sh [TEST_VENV]     # default .venv-py
#
# The packages are installed once with --no-deps into a cached folder
# (cache dir as in setup-trainers.sh), named after the hash of the
# requirements and the Python version, so a rerun is a no-op. The venv
# itself is per checkout: a .pth file puts that folder and this checkout's
# python/ (where `maturin develop` left the extension) on its path, so
# nothing is compiled twice. Needs the same Python as TEST_VENV.
set -euo pipefail
cd "$(dirname "$0")/.."

requirements="python/verifiers-requirements.txt"
test_venv="${1:-${VERIGYM_PY_VENV:-.venv-py}}"
venv="${VERIGYM_VERIFIERS_VENV:-.venv-verifiers}"
python="$test_venv/bin/python"
cache_dir="${VERIGYM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/verigym}"
key="$( (cat "$requirements"; "$python" --version) | sha256sum | cut -c1-12)"
target="$cache_dir/py-verifiers-$key"

if [ ! -f "$target/.complete" ]; then
    start=$(date +%s)
    echo "setup-verifiers.sh: installing verifiers into $target"
    rm -rf "$target"
    mkdir -p "$cache_dir"
    "$python" -m pip install --quiet --disable-pip-version-check --no-deps \
        --target "$target" -r "$requirements"
    touch "$target/.complete"
    echo "setup-verifiers.sh: done in $(($(date +%s) - start)) s ($(du -sh "$target" | cut -f1))"
else
    echo "setup-verifiers.sh: verifiers already in $target"
fi

if [ ! -x "$venv/bin/python" ]; then
    # The base interpreter of the test venv: the extension was built for it.
    base="$("$python" -c 'import sys; print(sys._base_executable)')"
    "$base" -m venv "$venv"
fi
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
printf '%s\n%s\n' "$target" "$PWD/python" > "$site/verigym-verifiers.pth"
# Editable, so edits to python/verigym-prime need no reinstall; redone when its pyproject changes.
if ! cmp -s python/verigym-prime/pyproject.toml "$venv/.verigym-prime-pyproject"; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -e python/verigym-prime
    cp python/verigym-prime/pyproject.toml "$venv/.verigym-prime-pyproject"
fi
# Where python/tests/test_verifiers.py finds this venv.
(cd "$venv" && pwd) > "$test_venv/.verigym-verifiers"
"$venv/bin/python" -c 'import verifiers, verigym, verigym_prime; print("setup-verifiers.sh: verifiers", verifiers.__version__, "verigym", verigym.__version__)'
