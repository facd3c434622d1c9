#!/usr/bin/env bash
# The crates as crates.io would get them. Each crate is packed as `cargo
# package` packs it, then compiled from the packages alone, so a crate that
# reads a file outside itself (an `include_str!` of `../../datasets/...`) or
# leaves out one it needs fails here, as its build from crates.io would.
# Then, for the crates that are published (every member without
# `publish = false`), the metadata crates.io shows (description, licence,
# documentation, readme, no placeholder URL) and the size of each .crate
# against crates.io's 10 MB limit.
#
#   scripts/package-check.sh                       # the check CI runs
#   PACKAGE_CHECK_VERIFY=1 scripts/package-check.sh  # cargo's own verification too
#
# `cargo package --workspace` verifies by building every package on its own,
# each with its own feature set: with wasmtime and burn below them that
# recompiles most dependencies several times (over 40 min on 2 busy cores).
# The equivalent CI runs instead packs every member with `--no-verify` (cargo
# still checks the manifests, the file lists and the dependency resolution,
# siblings resolved from the packages being made), unpacks the .crate files
# into one workspace whose siblings point at each other ([patch]), and runs
# `cargo check --workspace --all-targets` there: the same compile-time reads
# of embedded files, with the workspace's features and profile, so after
# `cargo clippy --workspace --all-targets` only verigym's own crates compile.
# What it does not do is link: nothing here has a build script or links
# native code of its own. `cargo publish --workspace --dry-run` runs the full
# verification of the published crates before a release (README "Publishing").
#
# Packs the working tree, committed or not (--allow-dirty).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
start=$(date +%s)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
packages="$CARGO_TARGET_DIR/package"

if [ "${PACKAGE_CHECK_VERIFY:-0}" = "1" ]; then
    # The root manifest's dev profile: a packaged member carries none, so
    # without it every dependency would build again with cargo's defaults.
    cargo package --workspace --allow-dirty --no-metadata \
        --config 'profile.dev.debug="line-tables-only"' \
        --config 'profile.dev.package."*".opt-level=2' \
        --config 'profile.dev.package."*".debug=false'
else
    cargo package --workspace --allow-dirty --no-metadata --no-verify
    # --no-metadata here and above: cargo would warn that the two crates that
    # are never published (verigym-cli, verigym-py) name no documentation;
    # the published ones are checked below.
    unpacked="$CARGO_TARGET_DIR/package-check"
    rm -rf "$unpacked"
    mkdir -p "$unpacked"
    python3 - "$root" "$packages" "$unpacked" <<'EOF'
import json
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

root, packages, unpacked = (Path(p) for p in sys.argv[1:])
metadata = json.loads(
    subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=root, check=True, capture_output=True, text=True,
    ).stdout
)
members = [p for p in metadata["packages"] if p["id"] in metadata["workspace_members"]]
dirs = []
for package in members:
    name = f"{package['name']}-{package['version']}"
    with tarfile.open(packages / f"{name}.crate") as crate:
        crate.extractall(unpacked, filter="data")
    dirs.append(name)
    # Only a workspace root's profiles count; the root's are copied below.
    manifest = unpacked / name / "Cargo.toml"
    kept, in_profile = [], False
    for line in manifest.read_text().splitlines(keepends=True):
        if line.startswith("["):
            in_profile = line.startswith("[profile.")
        if not in_profile:
            kept.append(line)
    manifest.write_text("".join(kept))
# The root manifest's profiles, as they are.
text = (root / "Cargo.toml").read_text()
profiles = text[text.index("[profile.") :]
lines = ["[workspace]", 'resolver = "3"', "members = ["]
lines += [f'    "{d}",' for d in sorted(dirs)]
lines += ["]", "", "[patch.crates-io]"]
# Every sibling a package depends on comes from its package, not crates.io.
needed = set()
for name in dirs:
    manifest = tomllib.loads((unpacked / name / "Cargo.toml").read_text())
    tables = [manifest] + list(manifest.get("target", {}).values())
    for table in tables:
        for kind in ["dependencies", "dev-dependencies", "build-dependencies"]:
            needed.update(table.get(kind, {}))
lines += [
    f'{p["name"]} = {{ path = "{p["name"]}-{p["version"]}" }}'
    for p in sorted(members, key=lambda p: p["name"])
    if p["name"] in needed
]
(unpacked / "Cargo.toml").write_text("\n".join(lines) + "\n\n" + profiles)
EOF
    # The workspace's lock file, so every dependency is the version CI built.
    cp Cargo.lock "$unpacked/Cargo.lock"
    (cd "$unpacked" && cargo check --workspace --all-targets --quiet)
fi

cargo metadata --format-version 1 --no-deps >"$CARGO_TARGET_DIR/package-check-metadata.json"
python3 - "$CARGO_TARGET_DIR/package-check-metadata.json" "$packages" <<'EOF'
import json
import os
import sys

metadata = json.load(open(sys.argv[1]))
packages = sys.argv[2]
limit = 10 * 1000 * 1000  # crates.io's upload limit
failures = []
published = 0
for package in metadata["packages"]:
    if package["id"] not in metadata["workspace_members"] or package["publish"] == []:
        continue
    published += 1
    name = package["name"]
    for field in ["description", "license", "documentation", "readme"]:
        if not package.get(field):
            failures.append(f"{name}: no `{field}`")
    for field in ["documentation", "homepage", "repository"]:
        url = package.get(field) or ""
        if ".invalid" in url or "example." in url or "localhost" in url:
            failures.append(f"{name}: `{field}` is a placeholder: {url}")
    crate = os.path.join(packages, f"{name}-{package['version']}.crate")
    size = os.path.getsize(crate)
    if size > limit:
        failures.append(f"{name}: {crate} is {size} bytes (crates.io takes at most {limit})")
    print(f"package-check: {name} {size // 1024} KiB")
if failures:
    sys.exit("package-check: " + "\npackage-check: ".join(failures))
print(f"package-check: the {published} published crates have their metadata")
EOF
echo "package-check: passed in $(($(date +%s) - start)) s"
