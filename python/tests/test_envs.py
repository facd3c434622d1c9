"""make / reset / step for one env per family, driven by the reference
solver (must pass) and by wrong actions (must not)."""

from __future__ import annotations

import pytest
from conftest import play_with_oracle

import verigym

SINGLE_PLAYER = [
    "math/arithmetic-v1",
    "logic/guess-number-v2",
    "logic/sudoku-v1@easy",
    "tools/vfs-shell-v2",
    "web/shop-v2",
]


def test_list_envs_covers_every_family():
    ids = verigym.list_envs()
    assert len(ids) == len(set(ids)) > 50
    families = {i.split("/")[0] for i in ids}
    assert {"math", "logic", "games", "tools", "web"} <= families
    assert verigym.list_envs("games") == [i for i in ids if i.startswith("games/")]
    assert verigym.list_envs("no-such-family") == []


def test_spec_describes_an_env():
    spec = verigym.spec("games/tictactoe-v1@hard")
    assert spec["id"] == "games/tictactoe-v1"
    assert spec["family"] == "games" and spec["players"] == 2 and spec["zero_sum"]
    assert spec["levels"] >= 3 and "hard" in spec["presets"]


@pytest.mark.parametrize("env_id", SINGLE_PLAYER)
def test_oracle_episode_passes_and_rewards_add_up(env_id):
    env = verigym.make(env_id)
    assert env.players == 1 and env.id == env_id
    for seed in (0, 1):
        total, (_, reward, terminated, truncated, info) = play_with_oracle(env, seed)
        assert terminated and not truncated
        assert isinstance(reward, float)
        final = info["info"]["scores"][0]
        assert final["passed"], f"{env_id} seed {seed}: oracle failed: {final}"
        assert total[0] == pytest.approx(final["reward"])
        assert info["info"]["current_player"] is None and info["info"]["to_move"] == []
        assert info["card_id"] == env.card["id"]
        assert env.score()["passed"]


@pytest.mark.parametrize("env_id", SINGLE_PLAYER)
def test_wrong_actions_do_not_pass(env_id):
    env = verigym.make(env_id)
    env.reset(seed=3)
    for action in ["", "I don't know", "\\boxed{}", "0 or 1 or 2"]:
        if env.card is None or env.score()["passed"]:
            break
        try:
            _, _, terminated, truncated, info = env.step(action)
        except verigym.EnvError as e:  # the episode ended on an earlier wrong answer
            assert "over" in str(e)
            break
        if "invalid_action" in info["info"]:
            assert info["info"]["invalid_action"] and info["info"]["invalid_actions"] >= 1
            assert info["info"]["retries_left"] is None, "verigym.Env sets no retry limit"
        if terminated or truncated:
            break
    assert not env.score()["passed"]


def test_reset_is_deterministic_and_takes_cards():
    env = verigym.make("logic/sudoku-v1@easy")
    first, info = env.reset(seed=7)
    card = env.card
    assert card["env_id"] == "logic/sudoku-v1" and card["seed"] == 7
    # The card id ends in the seed: a seat sees it only at the end.
    assert "card_id" not in info and info["info"]["prompt"] == first
    again, _ = env.reset(seed=7)
    assert again == first
    other, _ = env.reset(seed=8)
    assert other != first
    from_card, info = env.reset(card=card)
    assert from_card == first and env.card["id"] == card["id"]
    _, trainer = env.reset(card=card, view="all")
    assert trainer["card_id"] == card["id"]
    cards = verigym.generate("logic/sudoku-v1@easy", 2, seed=5)
    obs, info = env.reset(card=cards[1])
    assert obs == cards[1]["prompt"] and env.card == cards[1]
    # No seed: 0, then one more each time.
    env = verigym.make("math/arithmetic-v1")
    env.reset()
    assert env.card["seed"] == 0
    env.reset()
    assert env.card["seed"] == 1


def test_multi_turn_env_gives_feedback_each_turn():
    env = verigym.make("logic/guess-number-v2")
    observation, info = env.reset(seed=0)
    seen = [observation]
    steps = 0
    while True:
        observation, reward, terminated, truncated, info = env.step(env.oracle_action())
        seen.append(observation)
        steps += 1
        if terminated or truncated:
            break
    assert steps >= 2, "guess-number takes several guesses"
    assert len(set(seen)) == len(seen), "each turn shows new feedback"
    assert info["info"]["scores"][0]["passed"]


def test_game_exposes_player_and_own_or_per_player_rewards():
    env = verigym.make("games/tictactoe-v1")
    assert env.players == 2
    _, info = env.reset(seed=0)
    movers = []
    while True:
        player = info["info"]["current_player"]
        movers.append(player)
        with pytest.raises(verigym.EnvError, match="cannot move now"):
            env.step(env.random_action(1 - player), player=1 - player)
        action = env.random_action(seed=len(movers))
        assert action in env.observe(player)[1]["observation"]["legal_actions"]
        view = "all" if len(movers) % 2 else "seat"
        _, reward, terminated, truncated, info = env.step(action, view=view)
        if view == "all":
            # The trainer view: every seat's reward and observation.
            assert isinstance(reward, list) and reward == info["rewards"] and len(reward) == 2
            assert set(info["observations"]) == {"0", "1"} and info["info"]["view"] == "all"
        else:
            # The acting seat's own view and own reward.
            assert isinstance(reward, float) and reward == info["reward"]
            assert info["player"] == info["info"]["view"] == player
            assert set(info["observations"]) == {str(player)}
            if not (terminated or truncated):
                assert "rewards" not in info and "scores" not in info["info"]
        if terminated or truncated:
            break
        info = env.observe()[1]
    assert movers[:4] == [movers[0], 1 - movers[0], movers[0], 1 - movers[0]]
    scores = info["info"]["scores"]
    assert len(scores) == 2 and scores[0]["reward"] + scores[1]["reward"] == pytest.approx(0.0)
    assert info["observation"]["legal_actions"] == []
    with pytest.raises(verigym.EnvError, match="over"):
        env.step("1")


def test_game_oracle_vs_oracle_is_zero_sum():
    env = verigym.make("games/tictactoe-v1")
    total, (_, _, terminated, _, info) = play_with_oracle(env, 1)
    assert terminated
    assert sum(total) == pytest.approx(0.0)
    assert [s["reward"] for s in info["info"]["scores"]] == pytest.approx(total)


def test_simultaneous_game_takes_each_players_move():
    env = verigym.make("games/goofspiel-v1")
    _, info = env.reset(seed=0)
    assert info["info"]["to_move"] == [0, 1] and info["info"]["current_player"] is None
    _, reward, _, _, info = env.step(env.random_action(0), player=0)
    assert reward == 0.0
    assert info["info"]["to_move"] == [1]
    env.step(env.random_action(1), player=1)


def test_code_env_runs_in_the_sandbox():
    ids = verigym.list_envs("code")
    if not ids:
        pytest.skip("built without the sandbox feature: no code envs")
    env = verigym.make("code/functions-v2")
    try:
        total, (_, _, terminated, _, info) = play_with_oracle(env, 0)
    except verigym.EnvError as e:
        pytest.skip(f"the WASM sandbox is not set up here (run sandbox/setup.sh): {e}")
    if not info["info"]["scores"][0]["passed"]:
        pytest.skip(f"the WASM sandbox could not run the reference: {info['info']['scores'][0]}")
    env.reset(seed=0)
    _, reward, _, _, info = env.step("def solve(*args):\n    return None\n")
    assert not env.score()["passed"]
