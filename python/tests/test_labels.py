"""The trainer reward path as Python calls it: ``verigym.score_labels`` (one
call per batch) and the completion rule every integration shares."""

from __future__ import annotations

import json

import pytest

import verigym
from verigym.integrations.episodes import completion_actions, parse_label, replay, tool_call_action


def _card(env_id: str = "math/arithmetic-v1", seed: int = 3) -> dict:
    return verigym.generate(env_id, 1, seed=seed)[0]


def test_completions_in_each_trainer_shape_score_the_same():
    card = _card()
    gold = card["reference"]
    right = f"So the total is \\boxed{{{gold}}}."
    wrong = f"\\boxed{{{gold}9}}"
    shapes = [
        right,
        [{"role": "assistant", "content": right, "reasoning_content": f"maybe \\boxed{{{gold}9}}? no"}],
        [{"role": "assistant", "content": [{"type": "text", "text": right}]}],
        [{"role": "assistant", "tool_calls": [{"type": "function", "function": {"name": "answer", "arguments": {"action": right}}}]}],
    ]
    label = json.dumps(card)
    scored = verigym.score_labels([label] * len(shapes), shapes)
    assert [s["reward"] for s in scored] == [1.0] * len(shapes)
    assert not verigym.score_labels([label], [wrong])[0]["passed"]
    assert not verigym.score_labels([label], [""])[0]["passed"]


def test_a_bad_label_names_its_item():
    card = _card()
    with pytest.raises(verigym.EnvError, match="item 1"):
        verigym.score_labels([json.dumps(card), "{not json"], ["1", "2"])
    with pytest.raises(verigym.EnvError, match="no env_id or task"):
        parse_label({"seat": 0})


def test_one_tool_call_encoding_and_game_replays():
    action = json.loads(tool_call_action("ls", {"path": "/"}))
    assert action == {"tool_calls": [{"type": "function", "function": {"name": "ls", "arguments": {"path": "/"}}}]}
    # Each call is one action, in OpenAI's shape, whatever shape came in.
    turn = [{"role": "assistant", "tool_calls": [{"name": "ls", "arguments": {"path": "/"}}, {"name": "cat", "arguments": {}}]}]
    actions = completion_actions(turn)
    assert [json.loads(a)["tool_calls"][0]["function"]["name"] for a in actions] == ["ls", "cat"]
    with pytest.raises(TypeError):
        completion_actions(3)
    # A game label replays its seat: nonsense forfeits with the floor reward.
    game = _card("games/tictactoe-v1", 1)
    assert replay({"card": game, "seat": 1}, ["hmm"] * 3)["reward"] == -1.0
