"""What every trainer integration shares: episode labels, first views,
completions as actions, replays, and the text an agent is shown between
turns.

A *label* is what travels with a dataset row to the reward side (verl's
``ground_truth``, TRL's ``card`` column, OpenRLHF's label): the task card as
JSON text for one-player envs, and ``{"card": CARD, "seat": S}`` for games,
so the reward knows which seat the model played. It is never shown to the
model.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Optional, Union

from verigym._verigym import EnvError, SeatEnv, generate, score, spec, strip_end_of_turn

Label = Union[str, Mapping[str, Any]]

#: The system message of every generated chat row.
SYSTEM_PROMPT = "Solve the task. Follow the answer format it asks for exactly; put your final answer last."

#: Default built-in opponent of games (also what TRL's ``environment`` uses).
DEFAULT_OPPONENT = "heuristic"


@dataclass(frozen=True)
class Episode:
    """A label, parsed: the task card and the seat the model plays."""

    card: dict[str, Any]
    seat: int = 0

    @property
    def env_id(self) -> str:
        return self.card["env_id"]


def parse_label(label: Label) -> Episode:
    """The card and seat of a label (card JSON, a card dict, or
    ``{"card": ..., "seat": ...}`` as either).

    Raises:
        EnvError: the label is not JSON or holds no task card.
    """
    data: Any = label
    if isinstance(label, (bytes, bytearray)):
        data = label.decode()
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:
            raise EnvError(
                f"a verigym label must be a task card as JSON text, got text that is not JSON ({e}); "
                "build the rows with verigym.integrations.<trainer>.rows"
            ) from None
    if not isinstance(data, Mapping):
        raise EnvError(f"a verigym label must be a JSON object, got {type(data).__name__}")
    seat = 0
    if "card" in data and isinstance(data["card"], (Mapping, str)):
        seat = data.get("seat", 0)
        data = data["card"]
        if isinstance(data, str):
            data = json.loads(data)
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise EnvError(f"the label's seat must be a non-negative integer, got {seat!r}")
    if not isinstance(data, Mapping) or "env_id" not in data or "task" not in data:
        raise EnvError(
            "not a verigym task card (no env_id or task); build the rows with verigym.integrations.<trainer>.rows"
        )
    return Episode(card=dict(data), seat=seat)


def make_label(card: Mapping[str, Any], seat: int, players: int) -> str:
    """The label of one row: the card alone for one-player envs."""
    if players == 1:
        return json.dumps(card)
    return json.dumps({"card": card, "seat": seat})


def check_env(episode: Episode, env_id: Optional[str]) -> None:
    """Refuses a label made for another env than the one asked for."""
    if env_id is None:
        return
    wanted = env_id.split("@", 1)[0]
    if wanted != episode.env_id:
        raise EnvError(
            f"this row's task card is for `{episode.env_id}`, not `{wanted}`; "
            "route each row to the env its card names"
        )


def seat_rows(
    env_id: str,
    n: int,
    seed: int = 0,
    config: Optional[Mapping[str, Any]] = None,
    seat: Optional[int] = None,
    opponent: str = DEFAULT_OPPONENT,
) -> list[dict[str, Any]]:
    """Rows ``{"messages", "label", "seat", "kind"}``: the messages hold the
    system prompt and the seat's first view (after the opponent's opening
    moves when it moves first), the label holds the card and seat.

    In games, seats alternate by row (``seat=None``) so that the model plays
    every side, or are all ``seat``.
    """
    info = spec(env_id)
    players = info["players"]
    cards = generate(env_id, n, seed, config=config)
    rows = []
    env = SeatEnv(env_id, config, opponent=opponent) if players > 1 else None
    for index, card in enumerate(cards):
        row_seat = (index % players) if seat is None else seat
        if env is None:
            if row_seat != 0:
                raise EnvError(f"`{env_id}` has one player; its only seat is 0")
            first = card["prompt"]
        else:
            first, _ = env.reset(card=card, seat=row_seat)
        rows.append(
            {
                "messages": [
                    {"role": "system", "content": SYSTEM_PROMPT},
                    {"role": "user", "content": first},
                ],
                "label": make_label(card, row_seat, players),
                "seat": row_seat,
                "kind": info["kind"],
            }
        )
    return rows


def feedback_text(observation: str, info: Mapping[str, Any], tool_result: bool = False) -> str:
    """What the agent is shown after an action: the env's refusal reason
    (the episode is unchanged), else, for a tool call, the call's result
    where the env logs one (the last ``history`` entry of the structured
    observation: the rest of the observation is already in the
    conversation), else the env's next observation."""
    reason = info.get("invalid_action")
    if reason:
        left = info.get("retries_left", 0)
        return f"Invalid action: {reason}\n({left} more {'try' if left == 1 else 'tries'} on this turn.)"
    if tool_result:
        history = (info.get("structured") or {}).get("history")
        if isinstance(history, list) and history and isinstance(history[-1], Mapping) and "result" in history[-1]:
            return str(history[-1]["result"])
    return observation


def tool_call_action(name: str, arguments: Any) -> str:
    """One tool call as the action text the env parses (an OpenAI-style call
    object with the arguments as JSON)."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError:
            # Left as text: the env refuses it with its own reason.
            return json.dumps({"name": name, "arguments": arguments})
    return json.dumps({"name": name, "arguments": arguments})


def message_text(message: Mapping[str, Any], with_reasoning: bool = True) -> str:
    """A message's content as text (text parts joined). A separate
    ``reasoning_content`` is kept as reasoning: in front as
    ``<think>…</think>`` (where envs strip reasoning and shaping may reward
    its format), or left out (``with_reasoning=False``: an action of a
    multi-turn episode is the content alone)."""
    content = message.get("content") or ""
    if isinstance(content, Sequence) and not isinstance(content, str):
        content = "".join(
            part.get("text", "") for part in content if isinstance(part, Mapping) and part.get("type", "text") == "text"
        )
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    if with_reasoning and isinstance(reasoning, str) and reasoning.strip():
        return f"<think>{reasoning}</think>\n{content}"
    return str(content)


def completion_actions(completion: Any, action_tool: Optional[str] = None) -> list[str]:
    """The actions in a completion, one per turn.

    A string is one action. In a conversational completion (a list of
    messages) only assistant turns count: each tool call is one action (a
    call of ``action_tool``, the action method of a text env or game, is its
    ``action`` argument); when the completion has tool calls, assistant text
    without a call is not an action (TRL's tool loop ends a rollout with such
    a message); otherwise each assistant message's text is one action.
    """
    if completion is None:
        return []
    if isinstance(completion, str):
        return [completion]
    if isinstance(completion, Mapping):
        completion = [completion]
    if not isinstance(completion, Sequence):
        raise TypeError(
            f"a completion must be a string or a list of messages, got {type(completion).__name__}"
        )
    assistant = [m for m in completion if isinstance(m, Mapping) and m.get("role", "assistant") == "assistant"]
    with_calls = any(m.get("tool_calls") for m in assistant)
    actions: list[str] = []
    for message in assistant:
        calls = message.get("tool_calls") or []
        if with_calls:
            for call in calls:
                function = call.get("function", call) if isinstance(call, Mapping) else {}
                name = function.get("name", "")
                arguments = function.get("arguments", {})
                if action_tool is not None and name == action_tool:
                    if isinstance(arguments, str):
                        try:
                            arguments = json.loads(arguments)
                        except json.JSONDecodeError:
                            arguments = {"action": arguments}
                    value = arguments.get("action", "") if isinstance(arguments, Mapping) else arguments
                    actions.append(str(value))
                else:
                    actions.append(tool_call_action(name, arguments))
        else:
            actions.append(message_text(message, with_reasoning=False))
    return actions


def answer_text(completion: Any) -> str:
    """A single-turn answer: a string itself, or the text (reasoning kept as
    reasoning) of the last assistant message of a conversation."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        completion = [completion]
    if not isinstance(completion, Sequence):
        raise TypeError(
            f"a completion must be a string or a list of messages, got {type(completion).__name__}"
        )
    for message in reversed(completion):
        if isinstance(message, Mapping) and message.get("role", "assistant") == "assistant":
            return message_text(message)
    return ""


def replay(
    label: Label,
    actions: Sequence[str],
    opponent: str = DEFAULT_OPPONENT,
    max_retries: int = 2,
    max_turns: Optional[int] = None,
) -> dict[str, Any]:
    """Plays ``actions`` as the label's seat against ``opponent`` and returns
    the seat's final score ``{"reward", "passed", "breakdown"}``. Actions
    left after the end are ignored; an episode the actions do not finish is
    scored as it stands (mostly 0)."""
    return replay_episode(parse_label(label), actions, opponent, max_retries, max_turns)


def replay_episode(
    episode: Episode,
    actions: Sequence[str],
    opponent: str = DEFAULT_OPPONENT,
    max_retries: int = 2,
    max_turns: Optional[int] = None,
) -> dict[str, Any]:
    """:func:`replay` of a parsed label."""
    env = SeatEnv(episode.env_id, opponent=opponent, max_retries=max_retries, max_turns=max_turns)
    env.reset(card=episode.card, seat=episode.seat)
    for action in actions:
        if env.done:
            break
        env.step(action)
    return env.score()


#: The one action method of envs without tools, by kind: what a TRL
#: environment exposes and what a tool call of it means in a completion.
ACTION_METHODS = {"single_turn": "answer", "multi_turn": "act", "game": "play"}


@lru_cache(maxsize=None)
def env_tools(env_id: str) -> Optional[tuple[str, ...]]:
    """The OpenAI function schemas (as JSON texts) of an env's tools, or None
    for envs without tools. The same for every task of the env."""
    env = SeatEnv(env_id)
    env.reset(seed=0)
    tools = env.tools()
    return None if tools is None else tuple(json.dumps(t, sort_keys=True) for t in tools)


def action_method(env_id: str) -> Optional[str]:
    """The name of the env's one action method, or None for tool envs."""
    if env_tools(env_id) is not None:
        return None
    return ACTION_METHODS[spec(env_id)["kind"]]


def score_labels(
    labels: Sequence[Label],
    completions: Sequence[Any],
    opponent: str = DEFAULT_OPPONENT,
    shaping: Optional[Mapping[str, Any]] = None,
    threads: Optional[int] = None,
) -> list[dict[str, Any]]:
    """Scores each completion against its label: single-turn cards in one
    parallel batch (:func:`verigym.score`), multi-turn envs and games by
    replaying the completion's actions as the label's seat."""
    episodes = [parse_label(label) for label in labels]
    kinds = {e.env_id: spec(e.env_id)["kind"] for e in episodes}
    results: list[Optional[dict[str, Any]]] = [None] * len(episodes)
    single = [i for i, e in enumerate(episodes) if kinds[e.env_id] == "single_turn"]
    if single:
        scored = score(
            [episodes[i].card for i in single],
            [answer_text(completions[i]) for i in single],
            shaping=shaping,
            threads=threads,
        )
        for i, result in zip(single, scored):
            results[i] = {
                "reward": result["reward"],
                "passed": result["passed"],
                "breakdown": result["breakdown"],
                "no_verdict": result["no_verdict"],
            }
    for i, episode in enumerate(episodes):
        if results[i] is not None:
            continue
        if shaping:
            raise EnvError(
                f"shaping applies to single-turn envs only; `{episode.env_id}` is {kinds[episode.env_id]}"
            )
        actions = completion_actions(completions[i], action_method(episode.env_id))
        results[i] = replay_episode(episode, actions, opponent)
    return [r for r in results if r is not None]
