"""verigym's OpenEnv env package, openenv/verigym_env, through openenv-core
0.3.0's own CLI (python/openenv-requirements.txt): `openenv validate` passes
on it and fails on broken copies; `openenv build` accepts it, with
docker_stub.py as `docker` (no daemon here: it checks the build context as
`docker build` would before running a step, and records the command); what
`openenv push --no-interface` would upload builds the same way; and its typed
client and `uv run server` launcher work against `verigym serve`.

openenv-core 0.3.0's `openenv build` has no dry-run flag: it copies the env
folder to a temporary build context and runs `docker build` there, so the
stub stands in for exactly that call. Whether the RUN steps succeed (the
cargo build of verigym inside the image) takes a real `docker build`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest
import yaml
from test_client import server_binary, serving

pytest.importorskip("openenv.core", reason="openenv-core is not installed: run python/setup-openenv.sh")
# Installed with openenv-core (python/openenv-requirements.txt): an import
# error here is a broken set-up, not a skip.
import openenv.cli.__main__ as openenv_cli  # noqa: E402
from openenv.cli.commands import push  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

import docker_stub  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "openenv" / "verigym_env"
TIMEOUT = 60


def openenv(*args: str, env: dict[str, str] | None = None):
    """Upstream's `openenv` CLI app, in this process (its import takes
    seconds; `test_openenv_validate_passes` runs the real entry point)."""
    return CliRunner().invoke(openenv_cli.app, list(args), env=env)


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A copy of the package, as a user's checkout has it (no staged source)."""
    copy = tmp_path / "verigym_env"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("verigym-src.tar.gz", "__pycache__"))
    return copy


def stage_source(package: Path) -> Path:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: stage-source.sh needs `git archive`")
    tarball = package / "verigym-src.tar.gz"
    subprocess.run([PACKAGE / "stage-source.sh", "HEAD", tarball], check=True, capture_output=True, timeout=TIMEOUT)
    return tarball


def test_openenv_validate_passes():
    """The real `openenv validate` entry point, as a user runs it."""
    run = subprocess.run(
        [sys.executable, "-m", "openenv.cli", "validate", str(PACKAGE), "--json", "--verbose"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout)
    assert report["passed"] and report["issues"] == [], report
    assert report["environment"] == "verigym"
    assert report["deployment_modes"] == {"docker": True, "openenv_serve": True, "uv_run": True, "python_module": True}


@pytest.mark.parametrize(
    ("breakage", "message"),
    [
        ("uv.lock", "Missing uv.lock"),
        ("openenv.yaml", "missing openenv.yaml"),
        ("scripts", "Missing [project.scripts] server entry point"),
        ("main guard", "main() function not callable"),
        ("dependency", "Missing required dependency: openenv-core"),
    ],
)
def test_openenv_validate_fails_on_a_broken_copy(package: Path, breakage: str, message: str):
    assert openenv("validate", str(package)).exit_code == 0
    pyproject = package / "pyproject.toml"
    app = package / "server" / "app.py"
    if breakage in ("uv.lock", "openenv.yaml"):
        (package / breakage).unlink()
    elif breakage == "scripts":
        pyproject.write_text(pyproject.read_text().replace('server = "verigym_env.server.app:main"', ""))
    elif breakage == "main guard":
        app.write_text(app.read_text().replace('if __name__ == "__main__":', "if False:"))
    else:
        pyproject.write_text(re.sub(r'"openenv-core\[core\]==[^"]*",', "", pyproject.read_text()))
    result = openenv("validate", str(package))
    assert result.exit_code == 1 and message in result.output, result.output


def test_the_manifest_pyproject_and_lock_agree():
    manifest = yaml.safe_load((PACKAGE / "openenv.yaml").read_text())
    assert manifest["name"] == PACKAGE.name == "verigym_env" and manifest["port"] == 8000
    project = tomllib.loads((PACKAGE / "pyproject.toml").read_text())["project"]
    # openenv-core's AutoEnv maps the distribution openenv-X to the module X.
    assert project["name"].removeprefix("openenv-").replace("-", "_") == PACKAGE.name
    assert project["scripts"] == {"server": "verigym_env.server.app:main"}
    # The same openenv-core as the tests' client (python/openenv-requirements.txt).
    pinned = re.search(r"^openenv-core==(\S+)$", (ROOT / "python" / "openenv-requirements.txt").read_text(), re.M)
    assert project["dependencies"] == [f"openenv-core[core]=={pinned.group(1)}"]
    # uv.lock is current: it records the project's requirements as they are
    # (`uv lock --check` compares these first), and is small enough for git.
    lock_path = PACKAGE / "uv.lock"
    assert lock_path.stat().st_size < 1_000_000
    lock = tomllib.loads(lock_path.read_text())
    assert lock["requires-python"] == project["requires-python"]
    packages = {p["name"]: p for p in lock["package"]}
    own = packages["openenv-verigym-env"]
    assert own["source"] == {"editable": "."}
    requires = own["metadata"]["requires-dist"]
    locked = [f"{r['name']}[{','.join(r.get('extras', []))}]{r.get('specifier', '')}" for r in requires]
    assert locked == project["dependencies"]
    assert packages["openenv-core"]["version"] == pinned.group(1)


def build_records(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


@pytest.fixture
def docker(tmp_path: Path) -> dict[str, str]:
    """PATH with docker_stub.py as `docker`, and where it logs its calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stub = bin_dir / "docker"
    stub.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{Path(docker_stub.__file__).resolve()}" "$@"\n')
    stub.chmod(0o755)
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "DOCKER_STUB_LOG": str(tmp_path / "docker.jsonl")}


def test_openenv_build_accepts_the_package(package: Path, docker: dict[str, str]):
    tarball = stage_source(package)
    with tarfile.open(tarball) as source:
        names = set(source.getnames())
        cli = tomllib.loads(source.extractfile("cli/Cargo.toml").read().decode())
    # What the Dockerfile's `cargo build --locked -p verigym-cli --bin verigym` needs.
    assert {"Cargo.toml", "Cargo.lock", "cli/src/bin/verigym/main.rs"} <= names
    assert cli["package"]["name"] == "verigym-cli"
    result = openenv("build", str(package), env=docker)
    assert result.exit_code == 0 and "Docker build successful" in result.output, result.output
    [call] = build_records(Path(docker["DOCKER_STUB_LOG"]))
    assert call["problems"] == []
    assert call["tag"] == "openenv-verigym"
    assert call["build_args"] == {"BUILD_MODE": "standalone", "ENV_NAME": "verigym"}
    assert Path(call["dockerfile"]) == Path(call["context"]) / "server" / "Dockerfile"
    assert {"openenv.yaml", "verigym-src.tar.gz", "server/Dockerfile"} <= set(call["context_files"])
    assert 'CMD ["verigym", "serve", "--addr", "0.0.0.0:8000"]' in call["dockerfile_text"]


def test_openenv_build_fails_without_the_staged_source(package: Path, docker: dict[str, str]):
    result = openenv("build", str(package), env=docker)
    assert result.exit_code == 1 and "Docker build failed" in result.output, result.output
    [call] = build_records(Path(docker["DOCKER_STUB_LOG"]))
    assert call["problems"] == [f"COPY verigym-src.tar.gz: not in the build context {call['context']}"]


def test_the_stub_catches_what_docker_build_would_refuse(tmp_path: Path):
    (tmp_path / "a.txt").write_text("a")
    dockerfile = tmp_path / "Dockerfile"
    (tmp_path / "c.txt").write_text("c")
    (tmp_path / ".dockerignore").write_text("# comment\nc.txt\n")
    dockerfile.write_text(
        "ARG BASE\nFROM ${BASE} AS one\nCOPY a.txt b.txt c.txt /x/\nCOPY --from=two /y /y\n"
        "COPPY a.txt /z\nRUN true \\\n  && true\n"
    )
    assert docker_stub.check(dockerfile, tmp_path, {}) == [
        "FROM ${BASE} AS one: the image has no value",
        f"COPY b.txt: not in the build context {tmp_path}",
        "COPY c.txt: dropped by the context's .dockerignore",
        "COPY --from=two: no earlier stage of that name",
        "unknown instruction COPPY",
        "the last stage has no CMD or ENTRYPOINT",
    ]
    dockerfile.write_text('ARG BASE\nFROM ${BASE} AS one\nFROM debian\nCOPY --from=one /y /y\nCOPY a*.txt /z\nCMD ["x"]\n')
    assert docker_stub.check(dockerfile, tmp_path, {"BASE": "debian"}) == []


def test_what_openenv_push_uploads_builds_too(package: Path, tmp_path: Path):
    """`openenv push --no-interface` stages the folder (Dockerfile moved to
    the root, dotfiles dropped) and the Space builds it as its context."""
    stage_source(package)
    staging = tmp_path / "staging"
    push._prepare_staging_directory(
        package,
        "verigym_env",
        staging,
        ignore_patterns=push._load_ignore_patterns(package, None),
        enable_interface=False,
    )
    assert not (staging / "server" / "Dockerfile").exists()
    assert docker_stub.check(staging / "Dockerfile", staging, {}) == []
    assert "ENABLE_WEB_INTERFACE" not in (staging / "Dockerfile").read_text()
    front_matter = yaml.safe_load((staging / "README.md").read_text().split("---\n")[1])
    assert front_matter["sdk"] == "docker" and front_matter["app_port"] == 8000
    assert "base_path" not in front_matter  # verigym serves no /web UI


@pytest.fixture
def verigym_env(monkeypatch):
    monkeypatch.syspath_prepend(str(PACKAGE.parent))
    import verigym_env

    return verigym_env


def test_the_typed_client_plays_a_game(verigym_env):
    VerigymAction, VerigymEnv = verigym_env.VerigymAction, verigym_env.VerigymEnv
    with serving() as url, VerigymEnv(base_url=url, message_timeout_s=TIMEOUT).sync() as env:
        result = env.reset(env_id="games/kuhn-poker-v1", seed=3, seat=1, opponent="heuristic")
        assert isinstance(result.observation, verigym_env.VerigymObservation)
        assert result.observation.env_id == "games/kuhn-poker-v1" and result.observation.view == 1
        steps = 0
        while not result.done:
            assert result.observation.current_player == 1
            move = result.observation.legal_actions[0]
            result = env.step(VerigymAction(action=move) if steps % 2 == 0 else move)
            steps += 1
        metadata = result.observation.metadata
        assert result.observation.done and metadata["scores"][1] == metadata["score"]
        assert result.reward == result.observation.reward == metadata["score"]["reward"]
        state = env.state()
        assert isinstance(state, verigym_env.VerigymState)
        assert state.done and state.players == 2 and state.seat == 1 and state.step_count == steps
        # A string the env refuses is an invalid move, not a client error.
        result = env.reset(env_id="logic/guess-number-v2", seed=4)
        result = env.step("a big number")
        assert result.observation.metadata["invalid_action"] and not result.done


def test_uv_run_server_starts_verigym_serve():
    """The `server` script (`uv run server`) execs `verigym serve`."""
    binary = server_binary()
    if not binary.exists():
        pytest.skip(f"no verigym binary at {binary}")
    process = subprocess.Popen(
        [sys.executable, "-m", "server.app", "--host", "127.0.0.1", "--port", "0", "--", "--max-episodes", "3"],
        cwd=PACKAGE,
        env={**os.environ, "VERIGYM_BIN": str(binary)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = []
        while not (match := re.search(r"listening on (http://\S+)", lines[-1] if lines else "")):
            lines.append(process.stderr.readline())
            assert lines[-1], f"`verigym serve` exited: {lines}"
        import requests

        assert requests.get(f"{match.group(1).rstrip('/')}/health", timeout=TIMEOUT).json() == {"status": "healthy"}
    finally:
        process.terminate()
        process.wait(timeout=20)
    missing = subprocess.run(
        [sys.executable, "-m", "server.app"],
        cwd=PACKAGE,
        env={**os.environ, "VERIGYM_BIN": "", "PATH": ""},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert missing.returncode == 1 and "no `verigym` binary" in missing.stderr
