"""Gymnasium: every one-player env is registered and passes Gymnasium's own
`check_env`; episodes through `gymnasium.make` score as verigym does."""

from __future__ import annotations

from conftest import skip_without_protocols

skip_without_protocols()

import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

import verigym
import verigym.integrations.gymnasium as vg_gym
from verigym.integrations.gymnasium import gym_id

ONE_PLAYER = vg_gym.registered_ids()


def test_gym_id_maps_family_and_name():
    assert gym_id("logic/sudoku-v1") == "verigym/logic-sudoku-v1"
    assert gym_id("tools/vfs-shell-v2") == "verigym/tools-vfs-shell-v2"
    with pytest.raises(ValueError, match=r"preset='hard'"):
        gym_id("logic/sudoku-v1@hard")
    for bad in ("sudoku-v1", "logic/", "/sudoku-v1", "a/b/c-v1"):
        with pytest.raises(ValueError, match="not a verigym env id"):
            gym_id(bad)


def test_every_one_player_env_is_registered_and_no_game():
    ours = {i for i in gymnasium.registry if i.startswith(f"{vg_gym.NAMESPACE}/")}
    players = {i: verigym.spec(i)["players"] for i in verigym.list_envs()}
    assert ours == {gym_id(i) for i, n in players.items() if n == 1}
    assert len(ours) == len(ONE_PLAYER) > 40
    assert any(n > 1 for n in players.values()), "games exist and are left to PettingZoo"
    # Registering again changes nothing.
    assert vg_gym.register_all() == [gym_id(i) for i in ONE_PLAYER]


@pytest.mark.parametrize("env_id", ONE_PLAYER)
def test_check_env_passes_without_warnings(env_id):
    env = gymnasium.make(gym_id(env_id))
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env.unwrapped)
    except verigym.EnvError as e:
        if env_id.startswith("code/"):
            pytest.skip(f"the WASM sandbox is not set up here (run sandbox/setup.sh): {e}")
        raise
    finally:
        env.close()
    assert [str(w.message) for w in caught] == []


def test_games_are_refused_with_the_pettingzoo_route():
    with pytest.raises(ValueError, match=r"pettingzoo\.env\('games/tictactoe-v1'\)"):
        vg_gym.VerigymEnv("games/tictactoe-v1")


def test_text_spaces_cover_observations_and_replies():
    env = gymnasium.make(gym_id("logic/sudoku-v1"), preset="easy")
    observation, _ = env.reset(seed=0)
    assert observation in env.observation_space
    assert "digits only" not in repr(env.observation_space)
    for text in ("", "┌─┐ × − … ✓ 你好\n\tline", "\\boxed{42}"):
        assert text in env.action_space
    assert "\x00" not in env.action_space and "\ud800" not in env.action_space
    # Each env samples from its own generator.
    other = gymnasium.make(gym_id("logic/sudoku-v1"), preset="easy")
    env.action_space.seed(5)
    other.action_space.seed(6)
    assert env.action_space.np_random is not other.action_space.np_random
    assert env.action_space.sample() != other.action_space.sample()


@pytest.mark.parametrize("env_id", ["math/arithmetic-v1", "logic/guess-number-v2", "logic/sudoku-v1@easy", "tools/vfs-shell-v2"])
def test_oracle_episode_passes_through_gymnasium_make(env_id):
    base, _, preset = env_id.partition("@")
    env = gymnasium.make(gym_id(base), preset=preset or None)
    inner = env.unwrapped.verigym_env
    for seed in (0, 1):
        observation, info = env.reset(seed=seed)
        total = 0.0
        while True:
            observation, reward, terminated, truncated, info = env.step(inner.oracle_action())
            assert isinstance(observation, str) and isinstance(reward, float)
            total += reward
            if terminated or truncated:
                break
        assert terminated and not truncated
        scores = info["info"]["scores"]
        assert scores[0]["passed"], f"{env_id} seed {seed}: {scores}"
        assert total == pytest.approx(scores[0]["reward"])


@pytest.mark.parametrize("answer", ["", "42", "I don't know", "\\boxed{}", "1 or 2 or 3"])
def test_constant_answers_do_not_pass_through_gymnasium(answer):
    env = gymnasium.make(gym_id("math/arithmetic-v1"))
    for seed in range(5):
        env.reset(seed=seed)
        _, reward, terminated, _, info = env.step(answer)
        assert terminated and reward < 1.0 and not info["info"]["scores"][0]["passed"]


def test_seeded_reset_draws_the_task_from_np_random():
    env = gymnasium.make(gym_id("logic/sudoku-v1"), preset="easy")
    inner = env.unwrapped.verigym_env
    first, _ = env.reset(seed=11)
    first_seed = inner.card["seed"]
    again, _ = env.reset(seed=11)
    assert first == again and inner.card["seed"] == first_seed
    other, _ = env.reset(seed=12)
    assert other != first and inner.card["seed"] != first_seed
    # An unseeded reset continues the seeded generator: the next task, the same each run.
    env.reset(seed=11)
    next_1, _ = env.reset()
    env.reset(seed=11)
    next_2, _ = env.reset()
    assert next_1 == next_2 != first
    # A card plays that task.
    card = verigym.generate("logic/sudoku-v1@easy", 1, seed=99)[0]
    observation, info = env.reset(options={"card": card})
    assert observation == card["prompt"] and inner.card["id"] == card["id"]
    assert info["info"]["prompt"] == card["prompt"] and "card_id" not in info


def test_render_ansi_shows_the_state():
    env = gymnasium.make(gym_id("logic/guess-number-v2"), render_mode="ansi")
    env.reset(seed=0)
    assert isinstance(env.render(), str) and env.render()
    with pytest.raises(ValueError, match="render_mode"):
        vg_gym.VerigymEnv("logic/guess-number-v2", render_mode="human")
