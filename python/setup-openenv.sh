#!/usr/bin/env bash
# Installs the pinned OpenEnv client and CLI (python/openenv-requirements.txt)
# into a cached folder and makes the test venv see it, so python/tests/
# test_openenv.py drives `verigym serve` through the real openenv-core client
# and test_openenv_package.py runs `openenv validate` and `openenv build` on
# openenv/verigym_env. It relies on the trainers venv (python/setup-trainers.sh)
# for fastapi, pydantic and the like, so python/setup.sh calls it right after
# that; skip with VERIGYM_PY_OPENENV=0.
#
#   python/setup-openenv.sh [TEST_VENV]     # default .venv-py
#
# Cache dir as in setup-trainers.sh, named after the hash of the requirements.
set -euo pipefail
cd "$(dirname "$0")/.."

requirements="python/openenv-requirements.txt"
test_venv="${1:-${VERIGYM_PY_VENV:-.venv-py}}"
python="$test_venv/bin/python"
cache_dir="${VERIGYM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/verigym}"
key="$( (cat "$requirements"; "$python" --version) | sha256sum | cut -c1-12)"
target="$cache_dir/py-openenv-$key"

if [ ! -f "$target/.complete" ]; then
    start=$(date +%s)
    echo "setup-openenv.sh: installing openenv-core into $target"
    rm -rf "$target"
    mkdir -p "$cache_dir"
    "$python" -m pip install --quiet --disable-pip-version-check --no-deps \
        --target "$target" -r "$requirements"
    touch "$target/.complete"
    echo "setup-openenv.sh: done in $(($(date +%s) - start)) s ($(du -sh "$target" | cut -f1))"
else
    echo "setup-openenv.sh: openenv-core already in $target"
fi

test_site="$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "$target" > "$test_site/verigym-openenv.pth"
"$python" -c 'import openenv.core.generic_client, importlib.metadata as m; print("setup-openenv.sh: openenv-core", m.version("openenv-core"))'
