"""verigym in OpenRLHF (checked against openrlhf 0.11.2).

Data: :func:`rows` gives ``{"prompt": messages, "label": label}``; train with
``--data.input_key prompt --data.label_key label --data.apply_chat_template``.

Single-turn rewards, either way:

* a reward file: ``--reward.remote_url $(python -c 'import
  verigym.integrations.openrlhf as m; print(m.__file__)')``. OpenRLHF loads a
  ``.py`` URL with ``importlib.util.spec_from_file_location`` and calls
  ``reward_func(queries, prompts, labels)`` (``SingleTurnAgentExecutor`` in
  ``openrlhf/utils/agent.py``), so this module uses absolute imports only;
* a server: ``verigym serve`` answers ``POST /openrlhf/reward`` with the same
  payload (``--reward.remote_url http://HOST:PORT/openrlhf/reward``).

Multi-turn envs and games: ``--train.agent_func_path`` at the file of
:mod:`verigym.integrations.openrlhf_agent`.

A query is the decoded prompt followed by the reply; the prompt is cut off
before scoring (the task's own text never counts as an answer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional

from verigym._verigym import EnvError, reply_after_prompt
from verigym.integrations.episodes import DEFAULT_OPPONENT, score_labels, seat_rows

__all__ = ["reward_func", "rows"]


def rows(
    env_id: str,
    n: int,
    seed: int = 0,
    config: Optional[Mapping[str, Any]] = None,
    *,
    seat: Optional[int] = None,
    opponent: str = DEFAULT_OPPONENT,
) -> list[dict[str, Any]]:
    """Rows ``{"prompt": chat messages (the seat's first view), "label":
    label JSON}``, e.g. for ``datasets.Dataset.from_list(...).to_json(...)``."""
    return [
        {"prompt": row["messages"], "label": row["label"]}
        for row in seat_rows(env_id, n, seed, config, seat=seat, opponent=opponent)
    ]


def _as_rewards(values: list[float]) -> Any:
    """A tensor where torch is there (what OpenRLHF's own reward files
    return; ``torch.tensor([t])`` of a one-element tensor keeps its shape),
    else a list."""
    try:
        import torch
    except ImportError:
        return values
    return torch.tensor(values, dtype=torch.float32)


def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[Any]) -> dict[str, Any]:
    """OpenRLHF's reward-file hook: ``{"rewards", "scores", "extra_logs"}``
    for each ``query`` (prompt + reply) against its ``label`` (task card
    JSON from :func:`rows`). A reply is one action: single-turn envs are
    scored as answers; multi-turn envs and games belong in the agent file.
    """
    if not (len(queries) == len(prompts) == len(labels)):
        raise ValueError(
            f"got {len(queries)} queries, {len(prompts)} prompts and {len(labels)} labels; pass one of each per sample"
        )
    replies = []
    for index, (query, prompt) in enumerate(zip(queries, prompts)):
        try:
            replies.append(reply_after_prompt(query, prompt))
        except EnvError as e:
            raise EnvError(f"sample {index}: {e}") from None
    results = score_labels(list(labels), replies, opponent=DEFAULT_OPPONENT)
    # OpenRLHF takes numbers only: a sample the sandbox could not judge
    # scores 0 and is flagged in `verigym_no_verdict` (logged), never hidden.
    rewards = [0.0 if r.get("reward") is None else float(r["reward"]) for r in results]
    passed = [float(r["passed"]) for r in results]
    no_verdict = [float(r.get("reward") is None) for r in results]
    return {
        "rewards": _as_rewards(rewards),
        "scores": _as_rewards(rewards),
        "extra_logs": {"verigym_passed": _as_rewards(passed), "verigym_no_verdict": _as_rewards(no_verdict)},
    }
