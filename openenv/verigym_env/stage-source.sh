#!/usr/bin/env bash
# Writes verigym-src.tar.gz next to this script: the source of the verigym
# checkout this folder is in, at a commit (default HEAD; uncommitted changes
# are not in it), which server/Dockerfile builds `verigym serve` from. Run
# it before `openenv build` or `openenv push`; the tarball is git-ignored.
#
#   openenv/verigym_env/stage-source.sh [COMMIT [OUTPUT]]   # OUTPUT: another path
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
commit="${1:-HEAD}"
output="$(realpath -m "${2:-$here/verigym-src.tar.gz}")"
top="$(git -C "$here" rev-parse --show-toplevel)"
git -C "$top" archive --format=tar.gz --output="$output" "$commit"
echo "stage-source.sh: $output ($(du -h "$output" | cut -f1), $(git -C "$top" rev-parse --short "$commit"))"
