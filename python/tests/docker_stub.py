"""A stand-in for the `docker` command, for tests of `openenv build` where no
Docker daemon runs: run as `docker build -t TAG -f DOCKERFILE [--no-cache]
[--build-arg K=V]... CONTEXT`, it checks what the build needs from its
context before any layer runs, and appends a JSON record of the call to
$DOCKER_STUB_LOG. It exits 1, as `docker build` would fail, when:

- an instruction is not a Dockerfile instruction, or there is no FROM;
- a FROM image is a `${VAR}` with no value (no ARG default, no --build-arg);
- a COPY/ADD source is not in the context (globs allowed), or the context's
  .dockerignore drops it (plain patterns; `!` exceptions are not read);
- a `COPY --from=NAME` names no earlier stage;
- the last stage has no CMD or ENTRYPOINT (the image would not serve).

It runs no RUN step and pulls no image, so it cannot tell whether those
succeed: that needs a real `docker build`. `check(dockerfile, context,
build_args)` is the same check, for a test to call directly."""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shlex
import sys
from pathlib import Path

INSTRUCTIONS = {
    "ADD", "ARG", "CMD", "COPY", "ENTRYPOINT", "ENV", "EXPOSE", "FROM", "HEALTHCHECK", "LABEL",
    "MAINTAINER", "ONBUILD", "RUN", "SHELL", "STOPSIGNAL", "USER", "VOLUME", "WORKDIR",
}  # fmt: skip


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) per instruction: comments dropped,
    backslash continuations joined."""
    result: list[tuple[str, str]] = []
    pending = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        whole = (pending + stripped).strip()
        pending = ""
        if whole:
            keyword, _, rest = whole.partition(" ")
            result.append((keyword.upper(), rest.strip()))
    if pending.strip():
        keyword, _, rest = pending.strip().partition(" ")
        result.append((keyword.upper(), rest.strip()))
    return result


def _expand(value: str, args: dict[str, str | None]) -> str | None:
    """`value` with ${VAR}/$VAR replaced; None when a variable has no value."""
    missing = False

    def substitute(match: re.Match) -> str:
        nonlocal missing
        name = match.group(1) or match.group(2)
        if args.get(name) is None:
            missing = True
            return ""
        return args[name]

    expanded = re.sub(r"\$\{(\w+)\}|\$(\w+)", substitute, value)
    return None if missing else expanded


def _copy_operands(rest: str) -> tuple[dict[str, str], list[str]]:
    """The --flags and the operands of a COPY/ADD (shell or JSON form)."""
    words = shlex.split(rest)
    flags: dict[str, str] = {}
    while words and words[0].startswith("--"):
        name, _, value = words.pop(0)[2:].partition("=")
        flags[name] = value
    remainder = " ".join(words)
    if remainder.startswith("["):
        return flags, json.loads(remainder)
    return flags, words


def ignored(context: Path) -> list[str]:
    """The context's .dockerignore patterns, `!` exceptions left out."""
    path = context / ".dockerignore"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [line.strip().strip("/") for line in lines if line.strip() and not line.startswith(("#", "!"))]


def check(dockerfile: Path, context: Path, build_args: dict[str, str]) -> list[str]:
    """What `docker build -f dockerfile context` would fail on before running
    a step (see the module docstring); [] when nothing."""
    problems: list[str] = []
    dropped = ignored(context)
    global_args: dict[str, str | None] = {}
    stages: list[str] = []
    final_has_cmd = False
    for keyword, rest in instructions(dockerfile.read_text(encoding="utf-8")):
        if keyword not in INSTRUCTIONS:
            problems.append(f"unknown instruction {keyword}")
        elif keyword == "ARG" and not stages:
            name, _, default = rest.partition("=")
            global_args[name.strip()] = build_args.get(name.strip(), default.strip() or None)
        elif keyword == "FROM":
            words = rest.split()
            image = _expand(words[0], global_args) if words else None
            if not image:
                problems.append(f"FROM {rest}: the image has no value")
            stages.append(words[2].lower() if len(words) == 3 and words[1].upper() == "AS" else str(len(stages)))
            final_has_cmd = False
        elif not stages:
            problems.append(f"{keyword} before the first FROM")
        elif keyword in ("COPY", "ADD"):
            flags, operands = _copy_operands(rest)
            if len(operands) < 2:
                problems.append(f"{keyword} {rest}: needs a source and a destination")
                continue
            if "from" in flags:
                if flags["from"].lower() not in stages[:-1]:
                    problems.append(f"{keyword} --from={flags['from']}: no earlier stage of that name")
                continue
            for source in operands[:-1]:
                if source.startswith(("http://", "https://")):
                    continue
                if not (context / source).exists() and not any(context.glob(source)):
                    problems.append(f"{keyword} {source}: not in the build context {context}")
                elif any(fnmatch.fnmatch(source.strip("/"), pattern) for pattern in dropped):
                    problems.append(f"{keyword} {source}: dropped by the context's .dockerignore")
        elif keyword in ("CMD", "ENTRYPOINT"):
            final_has_cmd = True
    if not stages:
        problems.append("no FROM")
    elif not final_has_cmd:
        problems.append("the last stage has no CMD or ENTRYPOINT")
    return problems


def main(argv: list[str]) -> int:
    record: dict = {"argv": argv}
    log = os.environ.get("DOCKER_STUB_LOG")
    try:
        if not argv or argv[0] != "build":
            record["problems"] = [f"the docker stub runs `docker build` only, not {argv[:1]}"]
        else:
            parser = argparse.ArgumentParser(prog="docker build")
            parser.add_argument("-t", "--tag", required=True)
            parser.add_argument("-f", "--file", required=True)
            parser.add_argument("--no-cache", action="store_true")
            parser.add_argument("--build-arg", action="append", default=[])
            parser.add_argument("context")
            args = parser.parse_args(argv[1:])
            build_args = dict(arg.split("=", 1) for arg in args.build_arg)
            context = Path(args.context)
            record.update(
                tag=args.tag,
                dockerfile=args.file,
                context=args.context,
                build_args=build_args,
                dockerfile_text=Path(args.file).read_text(encoding="utf-8"),
                context_files=sorted(str(p.relative_to(context)) for p in context.rglob("*") if p.is_file()),
                problems=check(Path(args.file), context, build_args),
            )
    finally:
        if log:
            with open(log, "a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")
    for problem in record["problems"]:
        print(f"docker stub: {problem}", file=sys.stderr)
    if not record["problems"]:
        print(f"docker stub: would build {record['tag']} (no daemon; RUN steps not run)")
    return 1 if record["problems"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
