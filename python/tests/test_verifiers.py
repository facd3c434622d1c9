"""verifiers 0.4 (v1 API): its own `vf-eval` runs the `verigym-prime` taskset
against a loopback OpenAI-compatible stub. The stub plays the oracle (every
episode must reward 1) or a constant (none may). verifiers lives in its own
venv (python/setup-verifiers.sh), so it runs as a subprocess; the stub runs
here. Also: bad taskset configs (unknown env id, preset or config key, no
envs, a seat the game lacks) are refused by `vf-eval` before any rollout,
naming what was wrong, and the endless taskset gives distinct tasks, the
same ones again for the same seed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from chat_stub import chat_stub
from trainer_cases import tool_call
from verigym import SeatEnv
from verigym.integrations.episodes import tool_call_action

#: A single-turn, a multi-turn, a tool env and a game (against random play,
#: which the oracle beats from both seats on these seeds).
ENVS = ["math/arithmetic-v1", "logic/guess-number-v2", "tools/calendar-v2", "games/tictactoe-v1"]
TASKSET = {"id": "verigym-prime", "envs": ENVS, "n": 2, "seed": 0, "opponent": "random"}

#: Each bounded run's limit: the runs take a few seconds.
TIMEOUT = 300


def verifiers_python() -> str:
    """The python of .venv-verifiers (python/setup-verifiers.sh)."""
    if os.environ.get("VERIGYM_PY_VERIFIERS") == "0":
        pytest.skip("VERIGYM_PY_VERIFIERS=0: verifiers is not installed")
    marker = Path(sys.prefix) / ".verigym-verifiers"
    if not marker.exists():
        pytest.fail(f"no verifiers venv: run python/setup-verifiers.sh ({marker} is missing)")
    return str(Path(marker.read_text().strip()) / "bin" / "python")


def run_verifiers(code: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [verifiers_python(), "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    if check and result.returncode != 0:
        pytest.fail(f"verifiers subprocess failed ({result.returncode}):\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}")
    return result


def taskset_tasks(*loads: tuple[dict[str, Any], int]) -> list[list[dict[str, Any]]]:
    """For each `(config, limit)`: the first `limit` tasks the real taskset
    loads (through verifiers' own loader, by id), as their data. One
    subprocess for all."""
    out = run_verifiers(
        """
        import itertools, json, sys
        import verifiers.v1 as vf
        for config, limit in json.loads(sys.argv[1]):
            taskset = vf.load_taskset(vf.resolve_env_config({"taskset": config}).taskset)
            print(json.dumps([task.data.model_dump(mode="json") for task in itertools.islice(taskset, limit)]))
        """,
        json.dumps(loads),
    )
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("[")]


def actions_in(message: dict[str, Any]) -> list[str]:
    """The actions of one wire assistant message (the package's rule)."""
    if message.get("tool_calls"):
        return [tool_call_action(c["function"]["name"], c["function"]["arguments"]) for c in message["tool_calls"]]
    return [message.get("content") or ""]


class Oracle:
    """Answers each request with the oracle's next move. Episodes run one at
    a time (`-c 1`): a request holding no assistant turn starts the next
    task with that prompt; the moves so far are replayed on a fresh env.

    Every other episode of each env is written the way reasoning models write: the
    reasoning (holding other numbers) in `reasoning_content`, a single-turn
    answer after prose, and tool calls as OpenAI `tool_calls` instead of
    Hermes `<tool_call>` text."""

    def __init__(self, tasks: list[dict[str, Any]]):
        self.pending = list(tasks)
        self.current: dict[str, Any] | None = None
        self.styled = False
        self.started: dict[str, int] = {}
        self.requests = 0

    def __call__(self, body: dict[str, Any]) -> str | dict[str, Any]:
        self.requests += 1
        messages = body["messages"]
        assistant = [m for m in messages if m["role"] == "assistant"]
        if not assistant:
            prompt = next(m["content"] for m in messages if m["role"] == "user")
            self.current = next(t for t in self.pending if t["prompt"] == prompt)
            self.pending.remove(self.current)
            count = self.started[self.current["env_id"]] = self.started.get(self.current["env_id"], 0) + 1
            self.styled = count % 2 == 0
        task = self.current
        assert task is not None
        # As OpenAI's API demands: each tool call answered by a tool message with its id.
        for i, message in enumerate(messages):
            ids = [call["id"] for call in message.get("tool_calls") or []]
            answered = [m.get("tool_call_id") for m in messages[i + 1 : i + 1 + len(ids)]]
            assert answered == ids, f"tool calls {ids} answered by {messages[i + 1 : i + 1 + len(ids)]}"
        env = SeatEnv(task["env_id"], opponent=task["opponent"])
        env.reset(card=task["card"], seat=task["seat"])
        for message in assistant:
            for action in actions_in(message):
                env.step(action)
        action = env.oracle_action()
        assert action is not None, f"no oracle move in {task['name']}"
        if not self.styled:
            return action
        reasoning = "Let me think. A first guess would be 12, or maybe 7; checking again."
        if task["tools"]:
            name, arguments = tool_call(action)
            call = {"id": f"call_{len(assistant)}", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
            return {"content": None, "reasoning_content": reasoning, "tool_calls": [call]}
        if task["kind"] == "single_turn":
            return {"content": f"Working through it carefully.\n\nSo the final answer is {action}.", "reasoning_content": reasoning}
        return {"content": action, "reasoning_content": reasoning}


def vf_eval(tmp_path: Path, base_url: str, name: str) -> list[dict[str, Any]]:
    """verifiers' eval entry point (`vf-eval`) on the taskset; the episodes
    it wrote."""
    config = tmp_path / f"{name}.toml"
    config.write_text(
        "\n".join(
            [
                'model = "stub-model"',
                "num_rollouts = 1",
                "max_concurrent = 1",
                "push = false",
                f'output_dir = "{tmp_path / "outputs"}"',
                "[run]",
                f'name = "{name}"',
                "[client]",
                f'base_url = "{base_url}"',
                'api_key_var = "VERIGYM_STUB_KEY"',
                "[env.taskset]",
                *(f"{k} = {json.dumps(v)}" for k, v in TASKSET.items()),
            ]
        )
    )
    run_verifiers(
        "import sys; from verifiers.v1.cli.eval.main import main; sys.argv[0] = 'vf-eval'; main()",
        "@",
        str(config),
        "--no-rich",
    )
    traces = tmp_path / "outputs" / name / "traces.jsonl"
    return [json.loads(line) for line in traces.read_text().splitlines() if line.strip()]


def rewards(episodes: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """`(reward, passed)` of each episode, by task name."""
    out = {}
    for episode in episodes:
        assert not episode.get("errors"), episode["errors"]
        [trace] = episode["traces"]
        assert not trace.get("errors"), trace["errors"]
        name = trace["task"]["data"]["name"]
        score = trace["rewards"]["verigym"]["score"]
        # The reward re-scores the transcript on a fresh env: it must agree
        # with the episode the env played live.
        assert trace["info"]["verigym_live_score"] == score, name
        out[name] = (score, trace["metrics"]["passed"])
    return out


def test_vf_eval_with_the_oracle_passes_every_episode_and_with_a_constant_none(tmp_path):
    [tasks] = taskset_tasks((TASKSET, 2 * len(ENVS)))
    assert len(tasks) == 2 * len(ENVS)
    names = {t["name"] for t in tasks}
    oracle = Oracle(tasks)
    with chat_stub(oracle) as url:
        passed = rewards(vf_eval(tmp_path, url, "oracle"))
    assert not oracle.pending, "episodes the stub never saw"
    # Multi-turn episodes took several model turns, each answered here.
    assert oracle.requests > len(names) + 4
    assert set(passed) == names
    assert passed == {name: (1.0, 1.0) for name in names}
    constant_replies = []

    def constant(body: dict[str, Any]) -> str:
        constant_replies.append(body)
        return "42"

    with chat_stub(constant) as url:
        failed = rewards(vf_eval(tmp_path, url, "constant"))
    assert set(failed) == names
    # No episode passes; games count a forfeit or a loss as -1.
    assert {name: passed for name, (_, passed) in failed.items()} == {name: 0.0 for name in names}
    assert all(reward == (-1.0 if "games/" in name else 0.0) for name, (reward, _) in failed.items()), failed
    # Refused constants were retried (the env says why) before the forfeit.
    assert len(constant_replies) > len(names)


#: Bad taskset configs and what the refusal must say.
BAD_CONFIGS = {
    "unknown_env": ({"envs": ["math/arithmetic-v1", "math/no-such-env-v1"]}, ["unknown env `math/no-such-env-v1`", "verigym list"]),
    "unknown_preset": ({"envs": ["math/arithmetic-v1@nope"]}, ["no preset `nope`", "easy, medium, hard"]),
    "unknown_config_key": ({"config": {"bogus_key": 1}}, ["unknown field `bogus_key`", "max_terms"]),
    "no_envs": ({"envs": []}, ["--env.taskset.envs"]),
    "no_such_seat": ({"envs": ["games/tictactoe-v1"], "seat": 2}, ["seat 2", "2 seat(s)"]),
}


def test_bad_taskset_config_is_refused_by_vf_eval_before_any_rollout(tmp_path):
    """`vf-eval`'s own parse (its `main(argv)`, every case in one process)."""
    runs = [
        ["verigym-prime", *(a for k, v in taskset.items() for a in (f"--env.taskset.{k}", json.dumps(v)))]
        + ["-n", "1", "--no-push", "--no-rich", "-o", str(tmp_path / name)]
        for name, (taskset, _) in BAD_CONFIGS.items()
    ]
    out = run_verifiers(
        """
        import contextlib, io, json, sys
        from verifiers.v1.cli.eval.main import main
        results = []
        for argv in json.loads(sys.argv[1]):
            text, code = io.StringIO(), 0
            with contextlib.redirect_stdout(text), contextlib.redirect_stderr(text):
                try:
                    main(argv)
                except SystemExit as e:
                    code = e.code if isinstance(e.code, int) else 1
                except Exception as e:  # a refusal raised past the config parse
                    code = 1
                    print(repr(e))
            results.append({"code": code, "text": " ".join(text.getvalue().replace("│", " ").split())})
        print(json.dumps(results))
        """,
        json.dumps(runs),
    )
    results = json.loads(out.stdout.strip().splitlines()[-1])
    for (name, (_, expected)), result in zip(BAD_CONFIGS.items(), results):
        assert result["code"] != 0, name
        for part in expected:
            assert part in result["text"], (name, result["text"][-1500:])
        assert not list((tmp_path / name).rglob("traces.jsonl")), name


def test_the_endless_taskset_gives_distinct_tasks_and_the_same_ones_for_a_seed():
    config = {"id": "verigym-prime", "envs": ["math/arithmetic-v1@easy", "logic/sudoku-v1@easy"]}
    # Past one generation chunk (64 per env), so chunks must not repeat.
    first, again, other = taskset_tasks((config, 150), (config, 150), (dict(config, seed=1), 10))
    assert len(first) == 150
    assert len({t["card"]["id"] for t in first}) == 150
    assert len({t["prompt"] for t in first}) > 140
    assert [t["env_id"] for t in first[:4]] == config["envs"] * 2
    assert [t["card"] for t in again] == [t["card"] for t in first]
    assert not {t["card"]["id"] for t in other} & {t["card"]["id"] for t in first}
