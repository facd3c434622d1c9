"""`verigym.SeatEnv`: one seat against a built-in opponent, seat-only views."""

from __future__ import annotations

import copy
import json

import pytest

import verigym
from verigym import SeatEnv

POKER = "games/kuhn-poker-v1"


def play(env, actions):
    """Texts the seat is shown while playing `actions` (until the end)."""
    shown = []
    for action in actions:
        if env.done:
            break
        observation, _, _, _, info = env.step(action)
        shown.append((observation, env.done))
    return shown


@pytest.mark.parametrize("opponent", ["random", "heuristic", "oracle"])
def test_the_oracle_never_loses_tictactoe_from_either_seat(opponent):
    env = SeatEnv("games/tictactoe-v1", opponent=opponent)
    for seed in range(6):
        for seat in (0, 1):
            observation, info = env.reset(seed=seed, seat=seat)
            assert info["info"]["view"] == seat and "card_id" not in info and "prompt" not in info["info"]
            assert set(info["observations"]) == {str(seat)} and "scores" not in info["info"]
            total = 0.0
            while not env.done:
                _, reward, terminated, truncated, info = env.step(env.oracle_action())
                total += reward
            assert terminated and not truncated
            score = info["info"]["score"]
            assert score["reward"] >= 0.0 and total == pytest.approx(score["reward"])
            assert set(score) == {"reward", "passed", "breakdown"}
            # At the end every seat's score, the card id and the prompt open.
            assert info["info"]["scores"][seat] == score and len(info["info"]["scores"]) == 2
            assert info["card_id"].endswith(f":{seed:016x}") and info["info"]["prompt"]


def test_paired_poker_deals_look_the_same_to_the_seat_until_the_showdown():
    """Two episodes that differ only in the opponent's hidden card show the
    seat the same texts until the end (the random opponent draws the same
    numbers in both)."""
    cards = verigym.generate(POKER, 30, seed=3)
    compared = 0
    for card in cards:
        for seat in (0, 1):
            deal = card["task"]["deals"][0]
            hidden = ({0, 1, 2} - set(deal)).pop()
            other = copy.deepcopy(card)
            other["task"]["deals"][0][1 - seat] = hidden
            views = []
            for c in (card, other):
                env = SeatEnv(POKER, opponent="random")
                first, info = env.reset(card=c, seat=seat)
                views.append([(first, False)] + play(env, ["call", "check", "call", "check"]))
            before_end = [[text for text, done in v if not done] for v in views]
            assert before_end[0] == before_end[1], (card["id"], seat)
            compared += 1
            names = "JQK"
            for text in before_end[0]:
                assert f"Your card: {names[deal[1 - seat]]}" not in text
                assert card["id"] not in text and json.dumps(card["task"]) not in text
    assert compared == 60


def test_refusals_forfeit_and_bad_input_is_refused_clearly():
    env = SeatEnv("games/tictactoe-v1", opponent="random", max_retries=1)
    env.reset(seed=1, seat=0)
    _, _, _, truncated, info = env.step("nonsense")
    assert info["info"]["invalid_action"] and info["info"]["retries_left"] == 0 and not truncated
    assert info["info"]["invalid_actions"] == 1
    _, reward, _, truncated, info = env.step("nonsense")
    assert truncated and info["info"]["forfeit"] == 0 and info["info"]["score"]["reward"] == -1.0
    assert reward == -1.0 and info["reward"] == -1.0
    with pytest.raises(verigym.EnvError, match="over"):
        env.step("5")
    with pytest.raises(verigym.EnvError, match="seat 2 does not exist"):
        SeatEnv("games/tictactoe-v1", seat=2)
    with pytest.raises(verigym.EnvError, match="unknown opponent"):
        SeatEnv("games/tictactoe-v1", opponent="human")
    with pytest.raises(verigym.EnvError, match="unknown env"):
        SeatEnv("games/no-such-game-v1")
    card = verigym.generate("math/arithmetic-v1", 1)[0]
    with pytest.raises(verigym.EnvError, match="is for `math/arithmetic-v1`"):
        env.reset(card=card)
    with pytest.raises(verigym.EnvError, match="reset"):
        SeatEnv("logic/guess-number-v2").step("50")


def test_one_player_envs_are_the_same_episode_as_env():
    cards = verigym.generate("logic/guess-number-v2", 3, seed=2)
    for card in cards:
        seat_env, env = SeatEnv("logic/guess-number-v2"), verigym.make("logic/guess-number-v2")
        first, _ = seat_env.reset(card=card)
        assert first == env.reset(card=card)[0] == card["prompt"]
        while not seat_env.done:
            action = seat_env.oracle_action()
            a = seat_env.step(action)
            b = env.step(action)
            assert a[0] == b[0] and a[1] == b[1]
            # The same view, but for the retry rule (SeatEnv's 2; Env sets none).
            assert a[4]["info"].pop("retries_left") == 2 and b[4]["info"].pop("retries_left") is None
            assert a[4] == b[4]
        assert seat_env.score() == env.score()
    tools = SeatEnv("tools/calendar-v2")
    tools.reset(seed=0)
    names = [t["function"]["name"] for t in tools.tools()]
    assert "answer" in names and "book" in names
    assert SeatEnv("logic/guess-number-v2").kind == "multi_turn"
