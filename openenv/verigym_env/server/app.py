"""The server of verigym's OpenEnv env: `verigym serve`, verigym's Rust HTTP
server, which speaks OpenEnv's protocol itself (/ws sessions, /reset, /step,
/state, /schema, /health, /metadata, /mcp). There is no Python app: this
starts the binary, so that `uv run server` and `python -m server.app` work as
for any OpenEnv env.

    uv run server --port 8001            # or: python -m server.app --port 8001
    uv run server -- --max-episodes 64   # after `--`: more `verigym serve` flags

The binary is $VERIGYM_BIN, else `verigym` on PATH (from a verigym checkout:
`cargo install --locked --path cli`). The Docker image (server/Dockerfile)
runs it directly.
"""

import argparse
import os
import shutil
import sys
from typing import List, Optional


def verigym_binary() -> str:
    """$VERIGYM_BIN, else `verigym` on PATH; exits with a hint when neither."""
    binary = os.environ.get("VERIGYM_BIN") or shutil.which("verigym")
    if not binary:
        sys.exit(
            "verigym_env: no `verigym` binary: set VERIGYM_BIN, or install it from a verigym checkout "
            "with `cargo install --locked --path cli`"
        )
    return binary


def main(argv: Optional[List[str]] = None) -> None:
    """Replace this process with `verigym serve --addr HOST:PORT [FLAGS...]`."""
    parser = argparse.ArgumentParser(prog="server", description="Start `verigym serve` for OpenEnv.")
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("flags", nargs="*", help="more `verigym serve` flags, after `--`")
    args = parser.parse_args(argv)
    binary = verigym_binary()
    os.execv(binary, [binary, "serve", "--addr", f"{args.host}:{args.port}", *args.flags])


if __name__ == "__main__":
    main()
