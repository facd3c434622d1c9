"""PettingZoo: every game passes PettingZoo's own `api_test`; agents see only
their own seat; games played through the AEC env score as verigym does."""

from __future__ import annotations

from conftest import skip_without_protocols

skip_without_protocols()

import pytest
from pettingzoo.test import api_test

import verigym
from verigym.integrations import pettingzoo as vg_pz

GAMES = vg_pz.game_ids()


def test_every_game_is_offered_and_no_one_player_env():
    assert len(GAMES) >= 10 and "games/kuhn-poker-v1" in GAMES
    assert all(verigym.spec(g)["players"] >= 2 for g in GAMES)
    with pytest.raises(ValueError, match="Gymnasium"):
        vg_pz.env("logic/sudoku-v1")


@pytest.mark.parametrize("game_id", GAMES)
def test_api_test_passes(game_id):
    game = vg_pz.env(game_id)
    api_test(game, num_cycles=200)


@pytest.mark.parametrize("game_id", GAMES)
def test_action_slots_hold_every_legal_action_in_unseen_episodes(game_id):
    """The slots are sized on seeds 0..7; seeds 100.. must fit too, and the
    observation must fit its bytes."""
    game = vg_pz.env(game_id)
    slots = game.action_space(game.possible_agents[0]).n
    for seed in range(100, 106):
        game.reset(seed=seed)
        for step, agent in enumerate(game.agent_iter(max_iter=2000)):
            observation, _, terminated, truncated, info = game.last()
            assert not info["observation_cut"], f"{game_id}: {len(info['text'].encode())} bytes"
            assert len(info["legal_actions"]) <= slots
            assert int(observation["action_mask"].sum()) == (0 if terminated or truncated else len(info["legal_actions"]))
            if terminated or truncated:
                game.step(None)
            else:
                game.step(game.action_space(agent).sample(observation["action_mask"]))


@pytest.mark.parametrize("game_id", ["games/tictactoe-v1", "games/kuhn-poker-v1", "games/goofspiel-v1", "games/liars-dice-v1"])
def test_oracle_play_by_text_scores_as_verigym(game_id):
    game = vg_pz.env(game_id)
    inner = game.verigym_env
    zero_sum = verigym.spec(game_id)["zero_sum"]
    for seed in range(3):
        game.reset(seed=seed)
        totals = {a: 0.0 for a in game.possible_agents}
        scores = {}
        for agent in game.agent_iter(max_iter=5000):
            _, reward, terminated, truncated, info = game.last()
            totals[agent] += reward
            if terminated or truncated:
                scores[agent] = info["score"]
                game.step(None)
            else:
                text = inner.oracle_action(int(agent.split("_")[1]))
                game.step(text)
                assert "invalid_action" not in game.infos[agent], game.infos[agent]
        assert set(scores) == set(game.possible_agents) and not game.agents
        for agent, score in scores.items():
            assert totals[agent] == pytest.approx(score["reward"]), (game_id, seed, agent)
        if zero_sum:
            assert sum(totals.values()) == pytest.approx(0.0)


def test_a_refused_text_action_keeps_the_turn():
    game = vg_pz.env("games/tictactoe-v1")
    game.reset(seed=0)
    agent = game.agent_selection
    game.step("the middle one, probably")
    assert game.agent_selection == agent and game.infos[agent]["invalid_action"]
    with pytest.raises(ValueError, match="action slot 40 holds no legal action"):
        game.step(40)


def test_each_agent_sees_only_its_own_card():
    game = vg_pz.env("games/kuhn-poker-v1")
    for seed in range(10):
        game.reset(seed=seed)
        card = game.verigym_env.card
        names = ["J", "Q", "K"]
        deal = card["task"]["deals"][0]
        for p, agent in enumerate(game.possible_agents):
            text = game.infos[agent]["text"]
            assert f"Your card: {names[deal[p]]}" in text
            assert f"Your card: {names[deal[1 - p]]}" not in text
            assert names[deal[1 - p]] not in text.split("Your card:")[1].split("\n")[0]
            assert "card" not in game.infos[agent] and "task_id" not in game.infos[agent]
