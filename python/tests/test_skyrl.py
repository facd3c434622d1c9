"""SkyRL-Gym: SkyRL-Gym's own `make` builds the `verigym` env class from a
row, and the episodes it steps score the oracle's transcript 1 and the bad
ones (changed final answer, constant, empty, hedges) 0; a game's model sees
only its own seat."""

from __future__ import annotations

import os

import pytest
from conftest import skip_without_protocols

skip_without_protocols()
if os.environ.get("VERIGYM_PY_TRAINERS") == "0":
    pytest.skip(
        "VERIGYM_PY_TRAINERS=0: skyrl-gym imports pandas and requests, which come from the trainers venv",
        allow_module_level=True,
    )

import skyrl_gym
from trainer_cases import ENVS, OPPONENT, POKER, secrets, transcripts

import verigym
from verigym.integrations import skyrl


def play(row: dict, actions: list[str]) -> tuple[list[dict], float, dict]:
    """Steps the row's env (as SkyRL's generator does) with `actions` until
    done or out of actions (SkyRL's turn cap); returns every message the
    model was shown, the summed reward and the env's metrics (the seat's
    score as it stands)."""
    env = skyrl_gym.make(skyrl.ENV_CLASS, env_config={"opponent": OPPONENT}, extras=row)
    shown, _ = env.init(row["prompt"])
    total = 0.0
    for action in actions:
        out = env.step(action)
        shown += out["observations"]
        total += out["reward"]
        if out["done"]:
            assert out["metadata"]["score"]["reward"] == pytest.approx(env.get_metrics()["reward"])
            break
    metrics = env.get_metrics()
    env.close()
    return shown, total, metrics


def test_rows_carry_env_class_and_reward_spec():
    rows = skyrl.rows("games/tictactoe-v1", 4, seed=3)
    assert [r["extra_info"]["seat"] for r in rows] == [0, 1, 0, 1]
    for row in rows:
        assert row["env_class"] == "verigym" and row["data_source"] == "games/tictactoe-v1"
        assert row["reward_spec"]["method"] == "rule" and row["reward_spec"]["ground_truth"]
        assert [m["role"] for m in row["prompt"]] == ["system", "user"]
    assert "verigym" in skyrl_gym.registry


@pytest.mark.parametrize("env_id", ENVS)
def test_oracle_transcript_passes_and_bad_ones_fail(env_id):
    rows = skyrl.rows(env_id, 3, seed=11)
    for index in (0, 1):
        row = rows[index]
        label = row["reward_spec"]["ground_truth"]
        for case in transcripts(label, rows[2]["reward_spec"]["ground_truth"]):
            shown, total, metrics = play(row, case.actions)
            assert metrics["passed"] == float(case.must_pass), (env_id, index, case.name, metrics)
            assert total == pytest.approx(metrics["reward"]), (env_id, case.name)
            text = "\n".join(str(m["content"]) for m in shown)
            for secret in secrets(label):
                assert secret not in text, (env_id, case.name, secret)


def test_kuhn_poker_shows_only_the_seats_own_card():
    rows = skyrl.rows(POKER, 12, seed=0)
    for row in rows:
        label = row["reward_spec"]["ground_truth"]
        shown, _, _ = play(row, ["call", "check", "call", "check"])
        text = "\n".join(str(m["content"]) for m in shown)
        for secret in secrets(label):
            assert secret not in text


def test_bad_rows_get_clear_errors():
    with pytest.raises(verigym.EnvError, match="reward_spec.ground_truth"):
        skyrl_gym.make(skyrl.ENV_CLASS, extras={"prompt": []})
    row = skyrl.rows("math/arithmetic-v1", 1)[0]
    with pytest.raises(verigym.EnvError, match="not `logic/sudoku-v1`"):
        skyrl_gym.make(skyrl.ENV_CLASS, extras=dict(row, data_source="logic/sudoku-v1"))
    env = skyrl_gym.make(skyrl.ENV_CLASS, extras=row)
    env.init(row["prompt"])
    assert env.step("1")["done"]
    with pytest.raises(verigym.EnvError, match="over"):
        env.step("2")
