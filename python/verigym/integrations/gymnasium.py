"""Gymnasium: every one-player verigym env as a registered ``gymnasium.Env``.

Importing this module registers each one-player env (single-turn, multi-turn
and tool envs) under ``verigym/<family>-<name>-v<N>``::

    import gymnasium
    import verigym.integrations.gymnasium as vg_gym

    env = gymnasium.make(vg_gym.gym_id("logic/sudoku-v1"), preset="easy")
    observation, info = env.reset(seed=0)
    observation, reward, terminated, truncated, info = env.step("...")

Observations and actions are text (:class:`gymnasium.spaces.Text` over
:data:`CHARSET`). ``reset(seed=...)`` seeds the env's ``np_random`` (as
Gymnasium asks) and draws the verigym task seed from it, so the same seed
gives the same task; ``options={"card": card}`` plays a given task card.
Games (several players) are PettingZoo envs: :mod:`verigym.integrations.pettingzoo`.
Needs ``gymnasium`` (pinned in ``python/protocols-requirements.txt``).
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any, Optional

import gymnasium
import numpy as np
from gymnasium import spaces

import verigym

__all__ = ["CHARSET", "NAMESPACE", "VerigymEnv", "gym_id", "register_all", "registered_ids"]

#: The Gymnasium namespace of the registered ids.
NAMESPACE = "verigym"

#: Every character an observation or a reply may hold: the Basic Multilingual
#: Plane less the surrogates (not text on their own) and the control
#: characters other than tab, newline and carriage return. Gymnasium's default
#: is letters and digits only, which no prompt fits.
CHARSET: frozenset[str] = frozenset(
    chr(c)
    for c in range(0x10000)
    if not (0xD800 <= c <= 0xDFFF) and (c >= 0x20 or chr(c) in "\t\n\r") and not (0x7F <= c < 0xA0)
)

#: Longest observation and reply the spaces admit, in characters. Replies of
#: reasoning models run to ~130 KB; prompts with tool schemas to tens of KB.
MAX_OBSERVATION_CHARS = 1 << 20
MAX_ACTION_CHARS = 1 << 18


def gym_id(verigym_id: str) -> str:
    """The Gymnasium id of a verigym env id: ``logic/sudoku-v1`` ->
    ``verigym/logic-sudoku-v1``. Presets are not part of an id: pass
    ``preset="hard"`` to ``gymnasium.make``."""
    if "@" in verigym_id:
        base, preset = verigym_id.split("@", 1)
        raise ValueError(
            f"{verigym_id!r}: a preset is not part of a Gymnasium id; "
            f"use gymnasium.make({gym_id(base)!r}, preset={preset!r})"
        )
    family, sep, name = verigym_id.partition("/")
    if not sep or not family or not name or "/" in name:
        raise ValueError(f"{verigym_id!r} is not a verigym env id (family/name-vN, e.g. logic/sudoku-v1)")
    return f"{NAMESPACE}/{family}-{name}"


@lru_cache(maxsize=None)
def _text_prototype(max_length: int) -> spaces.Text:
    return spaces.Text(max_length, min_length=0, charset=CHARSET)


def _text_space(max_length: int) -> spaces.Text:
    """A Text space over :data:`CHARSET`. Building one indexes 63k characters
    (~50 ms), so each env gets a shallow copy of one prototype: the
    character tables are shared (never mutated), the sampling generator is
    its own (seeded lazily, as Gymnasium's spaces are)."""
    space = copy.copy(_text_prototype(max_length))
    space._np_random = None
    return space


class VerigymEnv(gymnasium.Env[str, str]):
    """One one-player verigym env as a ``gymnasium.Env``.

    Description: the verigym env ``env_id`` (see ``verigym.spec(env_id)``);
    each reset generates a task from a seed drawn from ``np_random``.
    Action Space: ``Text`` over :data:`CHARSET`, up to
    :data:`MAX_ACTION_CHARS`: the agent's reply.
    Observation Space: ``Text`` over :data:`CHARSET`, up to
    :data:`MAX_OBSERVATION_CHARS`: what the agent reads.
    Rewards: the env's reward for the step (the episode's rewards sum to
    the final score's reward).
    Episode End: terminated when the task ends, truncated at the env's step
    cap; a refused reply leaves the episode as it was and sets
    ``info["info"]["invalid_action"]``.
    Information: verigym's seat view, as ``verigym.Env`` and the server
    give it: ``info["observation"]`` (``text``, ``structured``,
    ``legal_actions``), ``info["info"]`` (``steps``, ``score``, every
    ``scores`` and the ``prompt`` at the end, ...), ``card_id`` at the end.
    The task card is ``env.unwrapped.verigym_env.card``.
    Arguments: ``env_id``, ``preset`` (a named preset or level), ``config``
    (overrides), ``render_mode`` (``None`` or ``"ansi"``).
    """

    # "ansi" returns the env's compact state dump; the fps is nominal (a text
    # env renders on demand), declared because Gymnasium's checker asks.
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        env_id: str,
        preset: Optional[str] = None,
        config: Optional[dict[str, Any]] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        asked = env_id if preset is None else f"{env_id}@{preset}"
        self._env = verigym.make(asked, config)
        if self._env.players != 1:
            raise ValueError(
                f"{env_id} has {self._env.players} players: games are PettingZoo envs "
                f"(verigym.integrations.pettingzoo.env({env_id!r}))"
            )
        self.render_mode = render_mode
        self.observation_space = _text_space(MAX_OBSERVATION_CHARS)
        self.action_space = _text_space(MAX_ACTION_CHARS)

    @property
    def verigym_env(self) -> verigym.Env:
        """The wrapped ``verigym.Env``."""
        return self._env

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        card = (options or {}).get("card")
        if card is not None:
            return self._env.reset(card=card)
        task_seed = int(self.np_random.integers(0, np.iinfo(np.int64).max, dtype=np.int64))
        return self._env.reset(task_seed)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self._env.step(str(action))
        return observation, float(reward), terminated, truncated, info

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return self._env.render()
        return None

    def close(self) -> None:
        """Nothing to release: the env holds no files or processes."""


def registered_ids() -> list[str]:
    """The verigym ids registered with Gymnasium: every one-player env."""
    return [i for i in verigym.list_envs() if verigym.spec(i)["players"] == 1]


def register_all() -> list[str]:
    """Registers every one-player env with Gymnasium (done on import; a
    second call changes nothing). Returns the Gymnasium ids."""
    ids = []
    for env_id in registered_ids():
        gid = gym_id(env_id)
        if gid not in gymnasium.registry:
            gymnasium.register(
                id=gid,
                entry_point="verigym.integrations.gymnasium:VerigymEnv",
                kwargs={"env_id": env_id},
                nondeterministic=False,
                # The env truncates at its own step cap; a TimeLimit on top
                # would end episodes the env still counts as running.
                max_episode_steps=None,
            )
        ids.append(gid)
    return ids


register_all()
