"""Deprecated: the trainer hooks moved to :mod:`verigym.integrations`
(``verigym.integrations.verl``, ``.trl``, ``.openrlhf``). This alias stays
for one release.

* ``compute_score`` -> ``verigym.integrations.verl.compute_score``
* ``verl_rows`` -> ``verigym.integrations.verl.rows``
* ``make_trl_reward`` -> ``verigym.integrations.trl.reward_function``
* ``trl_rows`` -> ``verigym.integrations.trl.rows``
* ``completion_text`` -> ``verigym.integrations.episodes.answer_text``
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, Optional

from verigym.integrations.episodes import answer_text as completion_text
from verigym.integrations.trl import reward_function as make_trl_reward
from verigym.integrations.trl import rows as trl_rows
from verigym.integrations.verl import compute_score
from verigym.integrations.verl import rows as verl_rows

warnings.warn(
    "verigym.adapters is deprecated and will be removed in the next release; "
    "use verigym.integrations.verl / .trl / .openrlhf",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = [
    "completion_text",
    "compute_score",
    "compute_score_batch",
    "make_trl_reward",
    "trl_rows",
    "verl_rows",
]


def compute_score_batch(
    data_sources: Sequence[str],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Optional[Sequence[Optional[Mapping[str, Any]]]] = None,
    **kwargs: Any,
) -> list[dict[str, float]]:
    """:func:`compute_score` over a batch (verl 0.9 has no batch reward
    manager any more; kept for callers of the old name)."""
    infos = list(extra_infos) if extra_infos is not None else [None] * len(solution_strs)
    return [
        compute_score(source, solution, truth, info, **kwargs)
        for source, solution, truth, info in zip(data_sources, solution_strs, ground_truths, infos)
    ]
