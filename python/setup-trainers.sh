#!/usr/bin/env bash
# Installs the pinned trainers (verl 0.9.1, trl 1.16.0, openrlhf 0.11.2 and what
# their modules import: torch, transformers, ray, ...) into a cached venv, and
# makes the test venv see it, so python/tests drive verigym through the real
# upstream code. Called by python/setup.sh; skip with VERIGYM_PY_TRAINERS=0.
#
#   python/setup-trainers.sh [TEST_VENV]     # default .venv-py
#
# The venv lives in the cache dir (same rule as sandbox/setup.sh):
#   $VERIGYM_CACHE_DIR, else $XDG_CACHE_HOME/verigym, else $HOME/.cache/verigym,
# named after the hash of python/trainers-requirements.txt, so a pin change
# makes a new one and a rerun is a no-op. PyPI's torch is the CUDA build (no CPU
# wheel there); it runs on CPU. Cold: 6.2 GB on disk, 330 s measured with no pip
# cache on this 2-core machine while others built (load average 11).
# The test venv gets a .pth file naming the cached site-packages, after its
# own (its pytest, maturin and ray win).
set -euo pipefail
cd "$(dirname "$0")/.."

VERL_VERSION="0.9.1"
OPENRLHF_VERSION="0.11.2"
requirements="python/trainers-requirements.txt"
test_venv="${1:-${VERIGYM_PY_VENV:-.venv-py}}"
python="${PYTHON:-python3}"

cache_dir="${VERIGYM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/verigym}"
key="$( (cat "$requirements"; echo "verl==$VERL_VERSION openrlhf==$OPENRLHF_VERSION"; "$python" --version) \
    | sha256sum | cut -c1-12)"
venv="$cache_dir/py-trainers-$key"

if [ ! -f "$venv/.complete" ]; then
    start=$(date +%s)
    echo "setup-trainers.sh: installing the pinned trainers into $venv"
    rm -rf "$venv"
    mkdir -p "$cache_dir"
    "$python" -m venv "$venv"
    pip=("$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps)
    "${pip[@]}" -r "$requirements"
    "${pip[@]}" "verl==$VERL_VERSION" "openrlhf==$OPENRLHF_VERSION"
    touch "$venv/.complete"
    echo "setup-trainers.sh: done in $(($(date +%s) - start)) s ($(du -sh "$venv" | cut -f1))"
else
    echo "setup-trainers.sh: trainers already in $venv"
fi

site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
test_site="$("$test_venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "$site" > "$test_site/verigym-trainers.pth"
"$test_venv/bin/python" -c 'import trl, verl, openrlhf, torch; print("setup-trainers.sh: trl", trl.__version__, "verl", verl.__version__, "torch", torch.__version__)'
