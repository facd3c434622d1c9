"""Reward hooks for Python RL trainers, over :func:`verigym.score`.

* verl: point ``custom_reward_function.path`` at this file and
  ``custom_reward_function.name`` at ``compute_score`` (one sample per call)
  or ``compute_score_batch`` (verl's batch reward manager); build the data
  with :func:`verl_rows`.
* TRL: ``GRPOTrainer(reward_funcs=[make_trl_reward()], train_dataset=...)``
  with rows from :func:`trl_rows`.

The task card travels with each sample as JSON text (``ground_truth`` in
verl, a ``card`` column in TRL): it holds everything the reward needs, so
rewards are computed on whichever worker holds the sample.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Optional, Union

from ._verigym import EnvError, generate, score

Card = Union[Mapping[str, Any], str]

__all__ = [
    "completion_text",
    "compute_score",
    "compute_score_batch",
    "make_trl_reward",
    "trl_rows",
    "verl_rows",
]


def _card_env_id(card: Card) -> str:
    data = json.loads(card) if isinstance(card, str) else card
    data = data.get("card", data)
    try:
        return data["env_id"]
    except (KeyError, TypeError):
        raise EnvError(
            "ground_truth is not a verigym task card (no env_id); build the data with verigym.adapters.verl_rows"
        ) from None


def _check_source(data_source: str, card: Card) -> None:
    """A verigym id as data_source must name the card's env; other sources
    (a dataset name) are not checked."""
    actual = _card_env_id(card)
    if "/" not in data_source:
        return
    wanted = data_source.split("@", 1)[0]
    if wanted != actual:
        raise EnvError(
            f"data_source `{data_source}` does not match the task card's env `{actual}`; "
            "the card decides how the answer is scored"
        )


def _verdict(result: Mapping[str, Any]) -> dict[str, float]:
    return {"score": float(result["reward"]), "passed": float(result["passed"])}


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: Card,
    extra_info: Optional[Mapping[str, Any]] = None,
) -> dict[str, float]:
    """verl's reward hook: the reward of ``solution_str`` on the task card
    ``ground_truth`` (a dict or its JSON). Returns ``{"score", "passed"}``
    (verl reads ``score`` and logs the rest)."""
    del extra_info  # verl passes it; the card carries all we need.
    _check_source(data_source, ground_truth)
    return _verdict(score([ground_truth], [solution_str])[0])


def compute_score_batch(
    data_sources: Sequence[str],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Card],
    extra_infos: Optional[Sequence[Any]] = None,
    threads: Optional[int] = None,
    **kwargs: Any,
) -> list[dict[str, float]]:
    """verl's batch reward hook: :func:`compute_score` over a whole batch,
    scored in parallel with the GIL released."""
    del extra_infos, kwargs
    for source, card in zip(data_sources, ground_truths):
        _check_source(source, card)
    return [_verdict(r) for r in score(list(ground_truths), list(solution_strs), threads=threads)]


def completion_text(completion: Any) -> str:
    """The answer text of a completion: the string itself, or the content of
    the last message of a conversational completion (a list of messages)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        completion = [completion]
    if isinstance(completion, Sequence) and completion:
        content = completion[-1].get("content", "")
        if isinstance(content, str):
            return content
        if isinstance(content, Sequence):  # [{"type": "text", "text": ...}, ...]
            return "".join(p.get("text", "") for p in content if isinstance(p, Mapping))
        return ""
    if isinstance(completion, Sequence):
        return ""
    raise TypeError(f"a completion must be a string or a list of messages, got {type(completion).__name__}")


def make_trl_reward(
    card_column: str = "card",
    shaping: Optional[Mapping[str, Any]] = None,
    threads: Optional[int] = None,
) -> Callable[..., list[float]]:
    """A TRL reward function ``fn(prompts, completions, **kwargs) -> rewards``.

    TRL passes the dataset's other columns as keyword arguments; the task
    card of each sample is read from ``card_column``. ``shaping`` adds
    declared format/length terms (see ``verigym score --shaping``)."""

    def verigym_reward(prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any) -> list[float]:
        del prompts
        if card_column not in kwargs:
            raise EnvError(
                f"the dataset has no `{card_column}` column; build it with verigym.adapters.trl_rows "
                "or pass card_column= to make_trl_reward"
            )
        cards = kwargs[card_column]
        answers = [completion_text(c) for c in completions]
        return [r["reward"] for r in score(list(cards), answers, shaping=shaping, threads=threads)]

    return verigym_reward


def trl_rows(
    env_id: str,
    n: int,
    seed: int = 0,
    config: Optional[Mapping[str, Any]] = None,
) -> list[dict[str, Any]]:
    """Dataset rows for TRL: ``prompt`` (system and user messages) and
    ``card`` (the task card as JSON text, one Arrow type for every env)."""
    return [
        {"prompt": row["messages"], "card": json.dumps(row["card"])}
        for row in generate(env_id, n, seed, config=config, format="chat")
    ]


def verl_rows(
    env_id: str,
    n: int,
    seed: int = 0,
    config: Optional[Mapping[str, Any]] = None,
) -> list[dict[str, Any]]:
    """Dataset rows in verl's layout (``data_source``, ``prompt``,
    ``ability``, ``reward_model.ground_truth`` = the card as JSON text,
    ``extra_info``), ready for ``pandas.DataFrame(rows).to_parquet``."""
    rows = []
    for index, row in enumerate(generate(env_id, n, seed, config=config, format="chat")):
        card = row["card"]
        rows.append(
            {
                "data_source": card["env_id"],
                "prompt": row["messages"],
                "ability": card["env_id"].split("/", 1)[0],
                "reward_model": {"style": "rule", "ground_truth": json.dumps(card)},
                "extra_info": {"index": index, "task_id": card["id"]},
            }
        )
    return rows
