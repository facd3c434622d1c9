"""What every trainer integration shares: episode labels, first views,
completions as actions, replays, and the text an agent is shown between
turns. Labels, completions and rewards are read in Rust
(``verigym_envs::labels`` and ``::completion``): the functions here are
thin adapters over that one path, one call per batch.

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

from verigym import _verigym
from verigym._verigym import EnvError, SeatEnv, generate, spec

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
    if isinstance(label, (bytes, bytearray)):
        label = label.decode()
    card, seat = _verigym.parse_label(label)
    return Episode(card=card, seat=seat)


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
    conversation), else the env's next observation. ``info`` is the seat
    view that ``SeatEnv.step`` returns."""
    facts = info.get("info") or {}
    reason = facts.get("invalid_action")
    if reason:
        left = facts.get("retries_left")
        if left is None:
            return f"Invalid action: {reason}"
        return f"Invalid action: {reason}\n({left} more {'try' if left == 1 else 'tries'} on this turn.)"
    if tool_result:
        history = ((info.get("observation") or {}).get("structured") or {}).get("history")
        if isinstance(history, list) and history and isinstance(history[-1], Mapping) and "result" in history[-1]:
            return str(history[-1]["result"])
    return observation


def tool_call_action(name: str, arguments: Any) -> str:
    """One tool call as the action text the env parses (the OpenAI shape
    every completion's calls are put in)."""
    return _verigym.tool_call_action(name, arguments)


def completion_actions(completion: Any, action_tool: Optional[str] = None) -> list[str]:
    """The actions in a completion, one per assistant turn (text, a message
    or a conversation): the rule of ``verigym_envs::completion``."""
    return _verigym.completion_actions(completion, action_tool)


def answer_text(completion: Any) -> str:
    """A single-turn answer: the last assistant turn's action, a separate
    ``reasoning_content`` in front as ``<think>…</think>``."""
    return _verigym.completion_answer(completion)


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
    label = {"card": episode.card, "seat": episode.seat}
    turns = [{"role": "assistant", "content": action} for action in actions]
    return _verigym.score_labels(
        [label], [turns], opponent=opponent, max_retries=max_retries, max_turns=max_turns
    )[0]


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
    """Scores each completion against its label in one parallel batch:
    one-player envs as ``verigym.score`` scores them (the last answer of a
    single-turn env, every turn of a multi-turn one), games by replaying the
    completion's turns as the label's seat against ``opponent``."""
    return _verigym.score_labels(list(labels), list(completions), opponent=opponent, shaping=shaping, threads=threads)
