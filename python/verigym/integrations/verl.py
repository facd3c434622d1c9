"""verigym in verl (checked against verl 0.9.1).

Single-turn: verl's reward loop calls ``compute_score``. Name it in the
config either by package or by file path (verl's ``load_module`` in
``verl/utils/import_utils.py`` loads a file under a made-up module name, so
this module uses absolute imports only)::

    reward:
      custom_reward_function:
        path: pkg://verigym.integrations.verl   # or the path of this file
        name: compute_score

and build the data with :func:`rows`::

    pandas.DataFrame(rows("math/arithmetic-v1", 10_000)).to_parquet("train.parquet")

Multi-turn, tool and web envs and games run in the agent loop ``verigym``
(:mod:`verigym.integrations.verl_agent`): the rows name it in their
``agent_name`` column, and :func:`agent_config_path` is the agent loop config
file that registers it (shipped in the package)::

    actor_rollout_ref.rollout.agent.agent_loop_config_path=<agent_config_path()>
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Optional

from verigym._verigym import EnvError
from verigym.integrations.episodes import DEFAULT_OPPONENT, Label, parse_label, score_labels, seat_rows

__all__ = ["AGENT_NAME", "agent_config_path", "compute_score", "rows"]

#: The name the agent loop is registered under.
AGENT_NAME = "verigym"

#: The agent loop config file, beside this module in the package.
AGENT_CONFIG_FILE = "verl_agent.yaml"


def agent_config_path() -> str:
    """The path of the agent loop config that registers the ``verigym``
    loop, for verl's ``actor_rollout_ref.rollout.agent.agent_loop_config_path``.
    The file ships inside the package, so the path works from a wheel as
    well as from a checkout; copy it to change the loop's arguments
    (``opponent``, ``max_retries``)."""
    path = Path(__file__).with_name(AGENT_CONFIG_FILE)
    if not path.is_file():
        raise EnvError(f"{path} is missing: reinstall verigym (the wheel ships it)")
    return str(path)


#: Where the agent loop leaves its score in ``extra_info`` (verl copies the
#: loop's ``extra_fields`` there as ``tool_extra_fields``).
SCORE_FIELD = "verigym_score"


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: Label,
    extra_info: Optional[Mapping[str, Any]] = None,
    **kwargs: Any,
) -> dict[str, float]:
    """verl's reward function: the reward of ``solution_str`` on the label
    ``ground_truth`` (task card JSON from :func:`rows`). Returns ``{"score",
    "passed", "no_verdict"}``; verl reads ``score`` and logs the rest
    (``no_verdict`` is 1 for a sample the sandbox could not judge, whose
    score is then 0: filter on it, or pass ``on_no_verdict="raise"``).

    verl's reward loop also passes ``extra_info`` (with ``num_turns`` and the
    rollout's fields) and, with a reward model, more keyword arguments,
    which are ignored. After the ``verigym`` agent loop the episode was
    already scored as it was played; that score is returned. ``opponent``
    (in ``reward_kwargs``) sets the opponent of games scored here.
    """
    played = (extra_info or {}).get(SCORE_FIELD)
    if isinstance(played, Mapping) and "reward" in played:
        return {"score": float(played["reward"]), "passed": float(played["passed"]), "no_verdict": 0.0}
    episode = parse_label(ground_truth)
    if "/" in data_source and data_source.split("@", 1)[0] != episode.env_id:
        raise EnvError(
            f"data_source `{data_source}` does not match the task card's env `{episode.env_id}`; "
            "the card decides how the answer is scored"
        )
    opponent = kwargs.get("opponent", DEFAULT_OPPONENT)
    result = score_labels([ground_truth], [solution_str], opponent=opponent)[0]
    if result.get("reward") is None:
        # verl's reward tensor takes numbers only. By default the sample
        # scores 0 with `no_verdict` = 1 in the logged extras (filter on it);
        # `on_no_verdict="raise"` in reward_kwargs stops training instead.
        if kwargs.get("on_no_verdict", "zero") == "raise":
            raise EnvError(f"no verdict: {result.get('no_verdict')}")
        return {"score": 0.0, "passed": 0.0, "no_verdict": 1.0}
    return {"score": float(result["reward"]), "passed": float(result["passed"]), "no_verdict": 0.0}


def rows(
    env_id: str,
    n: int,
    seed: int = 0,
    config: Optional[Mapping[str, Any]] = None,
    *,
    seat: Optional[int] = None,
    opponent: str = DEFAULT_OPPONENT,
    agent_name: Optional[str] = None,
) -> list[dict[str, Any]]:
    """Rows in verl's layout: ``data_source`` (the env id), ``prompt`` (the
    seat's first view as chat messages), ``ability`` (the family),
    ``reward_model`` ``{"style": "rule", "ground_truth": label}``,
    ``extra_info`` ``{"index", "seat"}`` and ``agent_name`` (default
    ``verigym``: the loop plays every kind of env and scores it, so one
    dataset may mix envs; ``single_turn_agent`` with ``compute_score`` works
    for single-turn envs). Ready for ``pandas.DataFrame(rows).to_parquet``."""
    out = []
    for index, row in enumerate(seat_rows(env_id, n, seed, config, seat=seat, opponent=opponent)):
        env = env_id.split("@", 1)[0]
        out.append(
            {
                "data_source": env,
                "prompt": row["messages"],
                "ability": env.split("/", 1)[0],
                "reward_model": {"style": "rule", "ground_truth": row["label"]},
                "extra_info": {"index": index, "seat": row["seat"]},
                "agent_name": agent_name or AGENT_NAME,
            }
        )
    return out
