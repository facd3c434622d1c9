"""The cases every trainer route is tested on: for each env, labelled rows
and transcripts that must pass (the oracle's) or fail (a changed final
answer, a constant, an empty reply, the audit's hedges), and what the model
must never see (the card, the task id, the other seat's view)."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

import pytest

from verigym import SeatEnv
from verigym.integrations.episodes import parse_label

#: A single-turn, a tool, a multi-turn text env, a game, and a tool world
#: with a policy (issue #37: its state and policy checks through each route).
ENVS = ["math/arithmetic-v1", "tools/calendar-v2", "logic/guess-number-v2", "games/tictactoe-v1", "tools/bank-v1"]

#: Games are played against this opponent in every route's tests: the
#: oracle beats it from both seats on the seeds used.
OPPONENT = "random"

#: The hidden-information game of the leak tests.
POKER = "games/kuhn-poker-v1"


def needs_trainers():
    """Skips only when the trainers were left out on purpose."""
    if os.environ.get("VERIGYM_PY_TRAINERS") == "0":
        pytest.skip("VERIGYM_PY_TRAINERS=0: the upstream trainers are not installed")


@dataclass
class Transcript:
    name: str
    actions: list[str]
    must_pass: bool


def oracle_actions(label: str, opponent: str = OPPONENT) -> list[str]:
    """The oracle's actions for the label's seat, against `opponent`."""
    episode = parse_label(label)
    env = SeatEnv(episode.env_id, opponent=opponent)
    env.reset(card=episode.card, seat=episode.seat)
    actions = []
    while not env.done:
        action = env.oracle_action()
        assert action is not None, f"{episode.env_id} has no oracle move"
        actions.append(action)
        _, _, _, _, info = env.step(action)
        assert "invalid_action" not in info, info
    assert env.score()["passed"], f"the oracle fails {episode.env_id}: {env.score()}"
    return actions


def changed_last(action: str) -> str:
    """The action with its final answer changed: the last run of digits
    (or, for text answers, the last word) made different."""
    digits = [i for i, c in enumerate(action) if c.isdigit()]
    if digits:
        i = digits[-1]
        return action[:i] + str((int(action[i]) + 1) % 10) + action[i + 1 :]
    return action + "x"


def transcripts(label: str, other_label: str) -> list[Transcript]:
    """The oracle's transcript and the ones that must fail, as the audit
    builds them (`src/audit.rs`): `other` is another task's reference. In
    tool envs the hedges are inside the final call's answer argument."""
    right = oracle_actions(label)
    other = oracle_actions(other_label)
    final, other_final = right[-1], other[-1]
    if final == other_final:
        other_final = changed_last(final)
    hedges = {
        "hedge_or": lambda a, b: f"{a} or {b}",
        "hedge_list": lambda a, b: f"{a}, {b}",
        "hedge_boxes": lambda a, b: f"\\boxed{{{unbox(a)}}} \\boxed{{{unbox(b)}}}",
    }
    # In a game another final move may win as well: the changed final move
    # is the first one again (an occupied square, a spent card).
    is_game = parse_label(label).seat > 0 or SeatEnv(parse_label(label).env_id).players > 1
    changed = right[0] if is_game and len(right) > 1 else changed_last(final)
    cases = [
        Transcript("oracle", right, True),
        Transcript("changed_final", right[:-1] + [changed], False),
        Transcript("constant", [other_final] * len(right), False),
        Transcript("empty", [""] * len(right), False),
    ]
    for name, fmt in hedges.items():
        cases.append(Transcript(name, right[:-1] + [hedged(final, other_final, fmt)], False))
    return cases


def hedged(final: str, other: str, fmt) -> str:
    """`fmt(final, other)`, applied to the answer argument of tool calls."""
    try:
        name, arguments = tool_call(final)
        _, other_arguments = tool_call(other)
    except (ValueError, KeyError):
        return fmt(final, other)
    key = next(k for k, v in arguments.items() if isinstance(v, str))
    arguments = dict(arguments, **{key: fmt(arguments[key], str(other_arguments.get(key, "")))})
    return hermes(name, arguments)


def hermes(name: str, arguments: dict) -> str:
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"


def unbox(text: str) -> str:
    if text.startswith("\\boxed{") and text.endswith("}"):
        return text[len("\\boxed{") : -1]
    return text


def tool_call(action: str) -> tuple[str, dict]:
    """(name, arguments) of a tool-call action text written as JSON or as
    one Hermes `<tool_call>` block.

    Raises:
        ValueError: the action is not one such call.
    """
    text = action.strip()
    if "<tool_call>" in text:
        if text.count("<tool_call>") != 1:
            raise ValueError("not exactly one call")
        text = text.split("<tool_call>", 1)[1].split("</tool_call>", 1)[0]
    call = json.loads(text)
    if not isinstance(call, dict):
        raise ValueError("not a call object")
    if "tool_calls" in call:
        call = call["tool_calls"][0]
    function = call.get("function", call)
    arguments = function.get("arguments", function.get("parameters", {}))
    if isinstance(arguments, str):
        arguments = json.loads(arguments)
    return function["name"], arguments


def secrets(label: str) -> list[str]:
    """Texts the model must never see for this label: the task id, the
    card's JSON, the other seats' opening views."""
    episode = parse_label(label)
    card = episode.card
    found = [card["id"], json.dumps(card)[:200], json.dumps(card["task"])[:100]]
    env = SeatEnv(episode.env_id, opponent=OPPONENT)
    for seat in range(env.players):
        if seat != episode.seat:
            view, _ = env.reset(card=card, seat=seat)
            # That seat's private card ("Your card: Q"), where the game has one.
            found += re.findall(r"Your cards?: [^.\n]+", view)
    return found
