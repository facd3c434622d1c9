"""verigym in TRL's ``GRPOTrainer`` (checked against trl 1.16.0).

Single-turn (rewards only)::

    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer
    from verigym.integrations import trl as vg

    train = Dataset.from_list(vg.rows("math/arithmetic-v1", 5_000))
    GRPOTrainer(model=..., reward_funcs=[vg.reward_function()], train_dataset=train,
                args=GRPOConfig(output_dir="out")).train()

Multi-turn, tools and games (the env runs inside the rollout; ``get_reward``
scores it)::

    train = Dataset.from_list(vg.rows("tools/calendar-v2", 5_000))
    GRPOTrainer(model=..., environment_factory=vg.environment("tools/calendar-v2"),
                train_dataset=train, args=GRPOConfig(output_dir="out")).train()

How TRL calls these (``trl/trainer/grpo_trainer.py``): reward functions get
``prompts``, ``completions``, ``completion_ids``, ``trainer_state``,
``log_extra``, ``log_metric`` (and ``environments``) plus every dataset
column; an ``environment_factory`` is called with no argument, its class is
probed with ``inspect.getmembers(type(instance), inspect.isfunction)``:
``reset`` and ``get_reward`` by name, every other public function is a tool
whose schema ``transformers.utils.get_json_schema`` builds from the type hints
and the Google-style docstring. ``reset(**row)`` gets every column of the row
and may return text that TRL appends to the last user message.
"""

from __future__ import annotations

import inspect
import itertools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Optional

from verigym._verigym import EnvError, SeatEnv, spec
from verigym.integrations.episodes import (
    ACTION_METHODS,
    DEFAULT_OPPONENT,
    check_env,
    feedback_text,
    parse_label,
    score_labels,
    seat_rows,
)

__all__ = ["ToolCallError", "environment", "reward_function", "rows"]


class ToolCallError(ValueError):
    """A tool call the env refused (unknown or mistyped arguments, a move
    that is not legal, a call after the end). TRL shows the message to the
    model as the tool's error."""


def rows(
    env_id: str,
    n: int,
    seed: int = 0,
    config: Optional[Mapping[str, Any]] = None,
    *,
    seat: Optional[int] = None,
    opponent: str = DEFAULT_OPPONENT,
) -> list[dict[str, Any]]:
    """Dataset rows for TRL: ``prompt`` (system and user messages: the
    seat's first view) and ``card`` (the label as JSON text: the task card,
    and the seat in games). Games alternate seats by row unless ``seat`` is
    given; the opponent's opening moves are already in the prompt."""
    return [
        {"prompt": row["messages"], "card": row["label"]}
        for row in seat_rows(env_id, n, seed, config, seat=seat, opponent=opponent)
    ]


def reward_function(
    card_column: str = "card",
    shaping: Optional[Mapping[str, Any]] = None,
    opponent: str = DEFAULT_OPPONENT,
    threads: Optional[int] = None,
) -> Callable[..., list[Optional[float]]]:
    """A TRL reward function ``verigym_reward(prompts, completions, **kwargs)``.

    Completions may be text or conversations: only assistant turns count,
    ``reasoning_content`` is kept as reasoning, each tool call is an action.
    Single-turn envs score the last assistant answer; multi-turn envs and
    games replay every assistant turn as the row's seat against
    ``opponent``. Rows whose ``card_column`` is empty get None (TRL's "not
    mine" when several reward functions share a dataset). Logs ``passed``
    and the reward breakdown through ``log_metric`` / ``log_extra``.
    ``shaping`` adds declared format/length terms (single-turn envs).
    """

    def verigym_reward(
        prompts: Optional[Sequence[Any]] = None,
        completions: Optional[Sequence[Any]] = None,
        **kwargs: Any,
    ) -> list[Optional[float]]:
        del prompts
        if completions is None:
            raise TypeError("verigym_reward needs `completions` (TRL passes them by keyword)")
        if card_column not in kwargs:
            raise EnvError(
                f"the dataset has no `{card_column}` column; build it with verigym.integrations.trl.rows "
                "or pass card_column= to reward_function"
            )
        labels = kwargs[card_column]
        if len(labels) != len(completions):
            raise ValueError(f"got {len(completions)} completions but {len(labels)} `{card_column}` values")
        mine = [i for i, label in enumerate(labels) if label not in (None, "")]
        scores = score_labels(
            [labels[i] for i in mine], [completions[i] for i in mine], opponent, shaping, threads
        )
        rewards: list[Optional[float]] = [None] * len(completions)
        passed: list[Optional[float]] = [None] * len(completions)
        for i, result in zip(mine, scores):
            # No verdict (the sandbox failed, not the answer): None, which
            # TRL leaves out of the advantage instead of learning a zero.
            rewards[i] = None if result.get("reward") is None else float(result["reward"])
            passed[i] = float(result["passed"])
        _log(kwargs, mine, scores, passed)
        return rewards

    return verigym_reward


def _log(kwargs: Mapping[str, Any], mine: list[int], scores: list[dict[str, Any]], passed: list) -> None:
    log_metric = kwargs.get("log_metric")
    log_extra = kwargs.get("log_extra")
    if log_metric is not None and scores:
        log_metric("verigym/passed", sum(bool(s["passed"]) for s in scores) / len(scores))
        parts = sorted({k for s in scores for k in s["breakdown"]})
        for part in parts:
            values = [s["breakdown"].get(part, 0.0) for s in scores]
            log_metric(f"verigym/{part}", sum(values) / len(values))
    if log_extra is not None:
        log_extra("verigym_passed", passed)


# --- environment_factory -------------------------------------------------

_JSON_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool}


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


def _docstring(description: str, params: Mapping[str, Any], returns: str) -> str:
    lines = [_one_line(description) or "Calls the tool.", ""]
    if params:
        lines.append("Args:")
        for name, schema in params.items():
            text = _one_line(schema.get("description", "")) or name.replace("_", " ")
            if schema.get("enum"):
                text += f" (choices: {json.dumps([str(c) for c in schema['enum']])})"
            lines.append(f"    {name}: {text}")
        lines.append("")
    lines += ["Returns:", f"    {returns}"]
    return "\n".join(lines)


def _tool_method(schema: Mapping[str, Any]) -> Callable[..., str]:
    """A plain function named after the tool, with type hints and a Google
    docstring made from its OpenAI schema, that sends the call to the env."""
    function = schema["function"] if "function" in schema else schema
    name = function["name"]
    parameters = function.get("parameters", {})
    properties: dict[str, Any] = parameters.get("properties", {})
    required = set(parameters.get("required", []))
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {"return": str}
    # Required first: Python needs parameters with defaults last.
    for key in sorted(properties, key=lambda k: k not in required):
        if not key.isidentifier():
            raise EnvError(f"tool `{name}` has a parameter `{key}` that is not a Python name")
        hint: Any = _JSON_TYPES.get(properties[key].get("type"), Any)
        if key in required:
            params.append(inspect.Parameter(key, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=hint))
        else:
            hint = Optional[hint]
            params.append(inspect.Parameter(key, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None, annotation=hint))
        annotations[key] = hint
    signature = inspect.Signature(params, return_annotation=str)

    def tool(self: Any, *args: Any, **kwargs: Any) -> str:
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError as e:
            raise ToolCallError(f"{name}: {e}; its parameters are {list(properties)}") from None
        arguments = {k: v for k, v in bound.arguments.items() if k != "self" and v is not None}
        try:
            text = json.dumps({"name": name, "arguments": arguments})
        except (TypeError, ValueError) as e:
            raise ToolCallError(f"{name}: arguments must be JSON values ({e})") from None
        return self._act(text)

    tool.__name__ = name
    tool.__qualname__ = name
    tool.__signature__ = signature  # type: ignore[attr-defined]
    tool.__annotations__ = annotations
    tool.__doc__ = _docstring(function.get("description", ""), properties, "What the call returned.")
    return tool


_ACTION_DOCS = {
    "answer": "Submit your answer to the task.",
    "act": "Take your next action in the task (a guess, a move, a command: whatever the task asks for).",
    "play": "Play your move in the game (in the notation the game describes).",
}


def _action_method(name: str) -> Callable[..., str]:
    def action_method(self, action: str) -> str:  # noqa: ANN001 (get_json_schema skips an unannotated self)
        if not isinstance(action, str):
            raise ToolCallError(f"{name}: `action` must be a string, got {type(action).__name__}")
        return self._act(action)

    action_method.__name__ = name
    action_method.__qualname__ = name
    action_method.__doc__ = _docstring(
        _ACTION_DOCS[name],
        {"action": {"description": "your action, exactly as the task asks for it"}},
        "What happens next: the feedback, or the opponent's reply and your new position.",
    )
    return action_method


class _Environment:
    """The base of the classes :func:`environment` makes; its only public
    functions are ``reset`` and ``get_reward`` (TRL takes every other public
    function as a tool)."""

    _env_id: str
    _config: Optional[Mapping[str, Any]]
    _opponent: str
    _max_retries: int
    _max_turns: Optional[int]
    _card_column: str
    _seeds: Any
    #: Whether the env has tools (its results are then the calls' results).
    _tools: bool

    def __init__(self) -> None:
        self._env = SeatEnv(
            self._env_id,
            self._config,
            opponent=self._opponent,
            max_retries=self._max_retries,
            max_turns=self._max_turns,
        )
        self._started = False

    def reset(self, **row: Any) -> Optional[str]:
        """Starts the episode of the row's task card and returns the first
        observation, or None when the row's prompt already ends with it."""
        label = row.get(self._card_column)
        if label in (None, ""):
            observation, _ = self._env.reset(seed=next(self._seeds))
        else:
            episode = parse_label(label)
            check_env(episode, self._env_id)
            observation, _ = self._env.reset(card=episode.card, seat=episode.seat)
        self._started = True
        prompt = row.get("prompt")
        last = prompt[-1].get("content") if isinstance(prompt, list) and prompt else None
        if isinstance(last, str):
            if last.rstrip().endswith(observation.strip()):
                return None
            return f"\n\n{observation}" if last.strip() else observation
        return observation

    def get_reward(self) -> float:
        """The seat's reward for the episode so far (final once it ended)."""
        if not self._started:
            return 0.0
        return float(self._env.score()["reward"])

    def _act(self, action: str) -> str:
        if not self._started:
            raise ToolCallError("no episode: TRL calls reset(**row) before any tool")
        if self._env.done:
            raise ToolCallError("the episode is over; no more calls count")
        observation, _, terminated, truncated, info = self._env.step(action)
        if info["info"].get("invalid_action"):
            suffix = " You have forfeited the episode." if (terminated or truncated) else ""
            raise ToolCallError(feedback_text(observation, info) + suffix)
        text = feedback_text(observation, info, tool_result=self._tools)
        if terminated or truncated:
            return f"{text}\n\nThe episode is over."
        return text


def _class_name(env_id: str) -> str:
    family, _, name = env_id.split("@", 1)[0].partition("/")
    words = re.split(r"[^0-9A-Za-z]+", f"{family} {name}")
    return "Verigym" + "".join(w[:1].upper() + w[1:] for w in words if w)


def environment(
    env_id: str,
    config: Optional[Mapping[str, Any]] = None,
    opponent: str = DEFAULT_OPPONENT,
    *,
    card_column: str = "card",
    max_retries: int = 2,
    max_turns: Optional[int] = None,
) -> type:
    """A class for ``GRPOTrainer(environment_factory=...)``.

    Its public functions are exactly the env's tools (one per OpenAI
    function schema of the env, with type hints and a Google docstring) or,
    for text envs and games, one action method (``answer`` for single-turn
    envs, ``act`` for multi-turn ones, ``play`` for games), plus ``reset``
    and ``get_reward``. Games play ``opponent`` (random, heuristic, oracle)
    inside the env, so each rollout is one seat's episode. Nothing on it
    reveals the task card, the reference answer, the oracle or hidden state.
    """
    probe = SeatEnv(env_id, config, opponent=opponent, max_retries=max_retries, max_turns=max_turns)
    probe.reset(seed=0)
    tools = probe.tools()
    for seed in range(1, 4):
        probe.reset(seed=seed)
        if probe.tools() != tools:
            # TRL lists one class's methods once for every rollout.
            raise EnvError(
                f"`{env_id}` gives each task its own tools, but a TRL environment class has one tool set; "
                "train it with reward_function() (tools in the prompt) or with verl's `verigym` agent loop"
            )
    namespace: dict[str, Any] = {
        "_env_id": env_id,
        "_config": dict(config) if config else None,
        "_opponent": opponent,
        "_max_retries": max_retries,
        "_max_turns": max_turns,
        "_card_column": card_column,
        "_seeds": itertools.count(),
        "_tools": bool(tools),
        "__doc__": f"verigym `{env_id}` as a TRL environment: {spec(env_id)['description']}",
        "__module__": __name__,
    }
    if tools:
        for schema in tools:
            method = _tool_method(schema)
            if method.__name__ in ("reset", "get_reward") or method.__name__.startswith("_"):
                raise EnvError(f"`{env_id}` has a tool named `{method.__name__}`, which TRL reserves")
            namespace[method.__name__] = method
    else:
        name = ACTION_METHODS[probe.kind]
        namespace[name] = _action_method(name)
    cls = type(_class_name(env_id), (_Environment,), namespace)
    for key, value in namespace.items():
        if inspect.isfunction(value):
            value.__qualname__ = f"{cls.__name__}.{key}"
    return cls
