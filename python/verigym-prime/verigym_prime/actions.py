"""Model messages as env actions: the one rule both the live episode
(`VerigymEnv`) and the reward's replay use, so they play the same moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from verigym import strip_end_of_turn
from verigym._verigym import completion_answer, message_actions


def _wire(message: Any) -> dict[str, Any]:
    return message if isinstance(message, dict) else message.model_dump()


def assistant_actions(message: Any) -> list[str]:
    """The actions in one message, by verigym's one completion rule: an
    assistant message's tool calls as one turn (OpenAI's shape), else its
    text with separate reasoning in front as `<think>…</think>` (envs
    strip it); end-of-turn markers stripped. Other roles hold none."""
    wire = _wire(message)
    if wire.get("role") != "assistant":
        return []
    return [strip_end_of_turn(action) for action in message_actions(wire)]


def final_answer(messages: Sequence[Any]) -> str:
    """A single-turn answer: the last assistant message's text, its separate
    reasoning in front as `<think>…</think>` (envs strip it)."""
    return strip_end_of_turn(completion_answer([_wire(m) for m in messages]))
