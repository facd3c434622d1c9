"""Model messages as env actions: the one rule both the live episode
(`VerigymEnv`) and the reward's replay use, so they play the same moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from verigym import strip_end_of_turn
from verigym.integrations.episodes import message_text, tool_call_action


def _wire(message: Any) -> dict[str, Any]:
    return message if isinstance(message, dict) else message.model_dump()


def assistant_actions(message: Any) -> list[str]:
    """The actions in one message: each tool call of an assistant message
    (an OpenAI-style call object the env parses), else its text (reasoning
    left out, end-of-turn markers stripped). Other roles hold none."""
    wire = _wire(message)
    if wire.get("role") != "assistant":
        return []
    calls = wire.get("tool_calls") or []
    if calls:
        return [tool_call_action(call["name"], call.get("arguments", "")) for call in calls]
    return [strip_end_of_turn(message_text(wire, with_reasoning=False))]


def final_answer(messages: Sequence[Any]) -> str:
    """A single-turn answer: the last assistant message's text, its separate
    reasoning in front as `<think>…</think>` (envs strip it)."""
    for message in reversed(messages):
        wire = _wire(message)
        if wire.get("role") == "assistant":
            return strip_end_of_turn(message_text(wire))
    return ""
