"""Failures arrive as Python exceptions carrying the Rust message."""

from __future__ import annotations

import pytest

import verigym


def test_env_error_is_a_value_error():
    assert issubclass(verigym.EnvError, ValueError)


def test_unknown_env_suggests_a_name():
    with pytest.raises(verigym.EnvError, match="unknown env `logic/sudok-v1`.*logic/sudoku-v1"):
        verigym.make("logic/sudok-v1")
    with pytest.raises(verigym.EnvError, match="no version"):
        verigym.make("logic/sudoku-v9")
    with pytest.raises(verigym.EnvError, match="no preset `impossible`"):
        verigym.generate("logic/sudoku-v1@impossible", 1)


def test_bad_config():
    with pytest.raises(verigym.EnvError, match="bad config"):
        verigym.make("logic/guess-number-v2", {"high": "lots"})
    with pytest.raises(TypeError, match="no JSON form"):
        verigym.make("logic/guess-number-v2", {"high": object()})


def test_steps_out_of_order():
    env = verigym.make("math/arithmetic-v1")
    with pytest.raises(verigym.EnvError, match="reset"):
        env.step("1")
    with pytest.raises(verigym.EnvError, match="reset"):
        env.oracle_action()
    env.reset(seed=0)
    env.step(env.oracle_action())
    with pytest.raises(verigym.EnvError, match="over"):
        env.step("1")
    env.reset(seed=1)
    with pytest.raises(verigym.EnvError, match="player 5 does not exist"):
        env.step("1", player=5)


def test_bad_cards_and_answers_name_the_item():
    good = verigym.generate("math/arithmetic-v1", 2, seed=0)
    with pytest.raises(verigym.EnvError, match="task 1: not a task card"):
        verigym.score([good[0], {"prompt": "hi"}], ["1", "2"])
    with pytest.raises(verigym.EnvError, match="task 0: a task card string must be JSON"):
        verigym.score(["{not json"], ["1"])
    tampered = dict(good[0], config={"max_value": 3})
    with pytest.raises(verigym.EnvError, match="task 0"):
        verigym.score([tampered], ["1"])
    with pytest.raises(TypeError, match="answer 1"):
        verigym.score(good, ["1", {"a": 1}])
    with pytest.raises(ValueError, match="2 tasks but 1 answers"):
        verigym.score(good, ["1"])
    with pytest.raises(verigym.EnvError, match="players"):
        verigym.score(verigym.generate("games/tictactoe-v1", 1), ["1"])
    with pytest.raises(verigym.EnvError, match="not a task card"):
        verigym.make("math/arithmetic-v1").reset(card={"id": "x"})


def kind_of(call) -> str | None:
    with pytest.raises(verigym.EnvError) as raised:
        call()
    return raised.value.kind


def test_every_env_error_carries_its_kind():
    assert kind_of(lambda: verigym.make("logic/sudok-v1")) == "unknown_env"
    assert kind_of(lambda: verigym.make("logic/guess-number-v2", {"high": "lots"})) == "bad_config"
    assert kind_of(lambda: verigym.make("math/arithmetic-v1", {"digits": 0})) == "bad_config"
    card = verigym.generate("math/arithmetic-v1", 1, seed=0)[0]
    tampered = dict(card, config_hash="0000")
    assert kind_of(lambda: verigym.make("math/arithmetic-v1").reset(card=tampered)) == "bad_card"
    assert kind_of(lambda: verigym.make("math/arithmetic-v1").reset(card={"id": "x"})) == "bad_card"
    # A batch names the item and keeps the kind.
    assert kind_of(lambda: verigym.score([tampered], ["1"])) == "bad_card"
    env = verigym.make("math/arithmetic-v1")
    assert kind_of(lambda: env.step("1")) == "reset_needed"
    env.reset(seed=1)
    assert kind_of(lambda: env.step("1", player=5)) == "invalid_argument"
    # Raised by Python code, an EnvError has no kind.
    assert verigym.EnvError("from Python").kind is None
