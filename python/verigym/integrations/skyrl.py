"""SkyRL-Gym: every verigym env as one ``BaseTextEnv``, ``env_class="verigym"``.

::

    import skyrl_gym
    from verigym.integrations import skyrl

    rows = skyrl.rows("logic/guess-number-v2", 64)   # dataset rows for SkyRL
    env = skyrl_gym.make("verigym", extras=rows[0])  # what SkyRL's generator does
    prompt, _ = env.init(rows[0]["prompt"])
    out = env.step("<model reply>")                  # observations, reward, done, metadata

Importing this module registers the env class ``verigym`` with SkyRL-Gym.
A row carries ``env_class`` and ``reward_spec`` ``{"method": "rule",
"ground_truth": label}``: the label (the task card, and the seat in games;
never shown to the model) decides the episode. The env plays that seat
through :class:`verigym.SeatEnv`, built-in opponents moving in between, so a
game's model only ever sees its own seat's view. Each step's reward is the
change of the seat's score; they sum to the final score. Needs
``skyrl-gym`` (pinned in ``python/protocols-requirements.txt``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput, ConversationType
from skyrl_gym.envs.registration import register, registry

from verigym._verigym import EnvError, SeatEnv, strip_end_of_turn
from verigym.integrations.episodes import DEFAULT_OPPONENT, check_env, feedback_text, parse_label, seat_rows

__all__ = ["ENV_CLASS", "VerigymTextEnv", "register_env", "rows"]

#: The ``env_class`` of every verigym row.
ENV_CLASS = "verigym"


class VerigymTextEnv(BaseTextEnv):
    """One verigym episode, chosen by the row's ``reward_spec.ground_truth``.

    ``env_config`` (SkyRL's ``environment.skyrl_gym.verigym`` section, a dict
    or OmegaConf node) may set ``opponent`` (``random``, ``heuristic``,
    ``oracle``), ``max_retries`` and ``max_turns``.
    """

    def __init__(self, env_config: Any = None, extras: Optional[Mapping[str, Any]] = None):
        super().__init__()
        extras = extras or {}
        spec = extras.get("reward_spec")
        if not isinstance(spec, Mapping) or "ground_truth" not in spec:
            raise EnvError(
                "a verigym row needs reward_spec.ground_truth (the task card label); "
                "build the rows with verigym.integrations.skyrl.rows"
            )
        config = dict(env_config or {})
        self.episode = parse_label(spec["ground_truth"])
        data_source = extras.get("data_source")
        if isinstance(data_source, str) and "/" in data_source:
            check_env(self.episode, data_source)
        self.env = SeatEnv(
            self.episode.env_id,
            opponent=config.get("opponent", DEFAULT_OPPONENT),
            max_retries=int(config.get("max_retries", 2)),
            max_turns=config.get("max_turns"),
        )
        self.observation, _ = self.env.reset(card=self.episode.card, seat=self.episode.seat)
        self.max_turns = int(config.get("max_turns") or 1_000_000)

    def init(self, prompt: ConversationType) -> tuple[ConversationType, dict[str, Any]]:
        """The row's prompt, with the seat's first view appended when the
        prompt does not already end with it."""
        messages = [dict(m) for m in prompt]
        last = messages[-1].get("content") if messages else None
        if not (isinstance(last, str) and last.rstrip().endswith(self.observation.strip())):
            messages.append({"role": "user", "content": self.observation})
        return messages, {"env_id": self.episode.env_id, "seat": self.episode.seat}

    def step(self, action: str) -> BaseTextEnvStepOutput:
        self.turns += 1
        if self.env.done:
            raise EnvError("the episode is over: SkyRL must not step a done env")
        observation, reward, terminated, truncated, info = self.env.step(strip_end_of_turn(action))
        done = self.env.done
        metadata: dict[str, Any] = {"invalid_action": info["info"].get("invalid_action")}
        if done:
            score = self.env.score()
            metadata.update(score=score, passed=bool(score["passed"]), terminated=terminated, truncated=truncated)
            observations: ConversationType = []
        else:
            observations = [{"role": "user", "content": feedback_text(observation, info)}]
        return BaseTextEnvStepOutput(
            observations=observations,
            reward=float(reward),
            done=done,
            metadata=metadata,
            postprocessed_action=None,
        )

    def get_metrics(self) -> dict[str, Any]:
        score = self.env.score()
        return {"reward": float(score["reward"]), "passed": float(score["passed"])}


def register_env() -> None:
    """Registers ``verigym`` with SkyRL-Gym (done on import; idempotent)."""
    if ENV_CLASS not in registry:
        register(id=ENV_CLASS, entry_point="verigym.integrations.skyrl:VerigymTextEnv")


def rows(
    env_id: str,
    n: int,
    seed: int = 0,
    config: Optional[Mapping[str, Any]] = None,
    *,
    seat: Optional[int] = None,
    opponent: str = DEFAULT_OPPONENT,
) -> list[dict[str, Any]]:
    """Rows in SkyRL's dataset layout: ``data_source`` (the env id),
    ``prompt`` (system message and the seat's first view), ``env_class``
    (``verigym``), ``reward_spec`` ``{"method": "rule", "ground_truth":
    label}`` and ``extra_info`` ``{"index", "seat"}``. In games the seats
    alternate by row unless ``seat`` is given."""
    base = env_id.split("@", 1)[0]
    return [
        {
            "data_source": base,
            "prompt": row["messages"],
            "env_class": ENV_CLASS,
            "reward_spec": {"method": "rule", "ground_truth": row["label"]},
            "extra_info": {"index": index, "seat": row["seat"]},
        }
        for index, row in enumerate(seat_rows(env_id, n, seed, config, seat=seat, opponent=opponent))
    ]


register_env()
