#!/usr/bin/env bash
# Installs what the sandbox's runtimes need; idempotent, safe to rerun.
#
#   sandbox/setup.sh            # both: C/C++ toolchain (apt) + Python builder (pip venv)
#   sandbox/setup.sh python     # only the componentize-py venv (no root needed)
#   sandbox/setup.sh c          # only clang + wasi-libc + libc++ (needs root or sudo, Debian/Ubuntu)
#
# Cold: ~20 s (apt ~15 s, pip ~5 s) with network; a rerun is a no-op (<0.1 s).
#
# The Python venv lives in the sandbox cache dir (same rule as the Rust code):
#   $VERIGYM_CACHE_DIR, else $XDG_CACHE_HOME/verigym, else $HOME/.cache/verigym.
# The component itself (harness.wasm + .cwasm) is built by the Rust code on first use,
# offline, from this venv; `cargo test -p verigym-sandbox` does that.
set -euo pipefail

COMPONENTIZE_PY_VERSION="0.25.1" # keep in sync with src/python.rs
what="${1:-all}"

cache_dir="${VERIGYM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/verigym}"
venv="$cache_dir/componentize-py-$COMPONENTIZE_PY_VERSION"

setup_c() {
    # C: clang, the linker, wasi-libc and compiler-rt; C++: libc++ and libc++abi for wasm32.
    local pkgs=(clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32
        libc++-19-dev-wasm32 libc++abi-19-dev-wasm32)
    if command -v clang-19 >/dev/null && [ -e /usr/lib/wasm32-wasi/libc.a ] \
        && ls /usr/lib/llvm-19/lib/clang/19/lib/wasi/libclang_rt.builtins-wasm32.a >/dev/null 2>&1 \
        && [ -e /usr/lib/wasm32-wasi/libc++.a ] && [ -e /usr/lib/wasm32-wasi/libc++abi.a ]; then
        echo "setup.sh: C/C++ toolchain already installed"
        return
    fi
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null; then
            # Not fatal: the C tests then skip with a ToolchainMissing message.
            echo "setup.sh: WARNING: not root and no sudo; C/C++ toolchain not installed" >&2
            return 0
        fi
        sudo="sudo"
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${pkgs[@]}"
    echo "setup.sh: installed ${pkgs[*]}"
}

setup_python() {
    # `--version` rather than `pip show | grep -q`: grep -q closing the pipe early trips pipefail.
    if [ -x "$venv/bin/componentize-py" ] \
        && [ "$("$venv/bin/componentize-py" --version 2>/dev/null)" = "componentize-py $COMPONENTIZE_PY_VERSION" ]; then
        echo "setup.sh: componentize-py $COMPONENTIZE_PY_VERSION already in $venv"
        return
    fi
    command -v python3 >/dev/null || {
        echo "setup.sh: python3 not found; install it (Debian: apt-get install python3 python3-venv)" >&2
        exit 1
    }
    mkdir -p "$cache_dir"
    python3 -m venv "$venv" || {
        echo "setup.sh: 'python3 -m venv' failed; install python3-venv (Debian: apt-get install python3-venv)" >&2
        exit 1
    }
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "componentize-py==$COMPONENTIZE_PY_VERSION"
    echo "setup.sh: componentize-py $COMPONENTIZE_PY_VERSION installed in $venv"
}

case "$what" in
all) setup_c; setup_python ;;
c) setup_c ;;
python) setup_python ;;
*) echo "usage: $0 [all|c|python]" >&2; exit 2 ;;
esac
