"""PettingZoo: every verigym game as an AEC env.

::

    from verigym.integrations.pettingzoo import env

    game = env("games/kuhn-poker-v1")
    game.reset(seed=0)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        action = None if terminated or truncated else game.action_space(agent).sample(observation["action_mask"])
        game.step(action)

Agents are ``player_0``, ``player_1``, ... Each agent observes only its own
seat's view (``verigym.Env.observe``): a Dict of ``observation`` (the UTF-8
bytes of the view's text, zero-padded to :data:`OBSERVATION_BYTES`) and
``action_mask`` (1 for each slot holding a legal action now). The text and
the legal actions themselves are in ``infos[agent]["text"]`` and
``infos[agent]["legal_actions"]``. An action is a slot index: slot ``i``
plays the ``i``-th legal action of the moment (slots past the legal list
are masked off; in open-text games, whose moves are free text, the slots
hold a menu drawn by the env's sampler, see :data:`SAMPLED_MOVES`); a
string is played as the reply text itself, for LLM agents. Simultaneous moves are taken one seat after the other; no seat sees
another's move before the round resolves. Needs ``pettingzoo`` (pinned in
``python/protocols-requirements.txt``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Optional, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import verigym

__all__ = ["OBSERVATION_BYTES", "VerigymAECEnv", "action_slots", "env", "game_ids"]

#: Bytes of the encoded observation; longer views are cut there (the whole
#: text is always in ``infos[agent]["text"]``, and
#: ``infos[agent]["observation_cut"]`` says when it was cut).
OBSERVATION_BYTES = 4096

#: Random episodes played to size a game's action slots, and the headroom
#: over the most legal actions seen in them.
_SIZING_EPISODES = 8
_SIZING_HEADROOM = 2

#: Games whose moves are open text (negotiation's offers) list no legal
#: actions; their slots hold this many moves drawn by the env's own sampler
#: (``Env.random_action``, seeds 0..n-1: the same menu for the same state).
SAMPLED_MOVES = 16


def moves(game: verigym.Env, player: int, legal: Optional[list[str]]) -> list[str]:
    """The moves behind the action slots: the legal actions, or for an
    open-text game a menu drawn by the env's sampler (duplicates dropped)."""
    if legal is not None:
        return list(legal)
    return list(dict.fromkeys(game.random_action(player, seed=s) for s in range(SAMPLED_MOVES)))


def game_ids() -> list[str]:
    """Every verigym env with more than one player."""
    return [i for i in verigym.list_envs() if verigym.spec(i)["players"] > 1]


@lru_cache(maxsize=None)
def action_slots(game_id: str, config_json: Optional[str] = None) -> int:
    """The size of the game's ``Discrete`` action space: twice the most legal
    actions seen in a few seeded random episodes (so the same for every run),
    at least 2. A state with more legal actions than slots still takes the
    rest as text."""
    import json

    game = verigym.make(game_id, None if config_json is None else json.loads(config_json))
    most = 1
    for seed in range(_SIZING_EPISODES):
        _, info = game.reset(seed=seed)
        for step in range(game_steps_cap(game_id)):
            if _mover(info) is None:
                break
            legal = info["observation"]["legal_actions"]
            most = max(most, SAMPLED_MOVES if legal is None else len(legal))
            _, _, terminated, truncated, info = game.step(game.random_action(seed=seed * 7919 + step), view="all")
            if terminated or truncated:
                break
    return max(2, most * _SIZING_HEADROOM)


def _mover(info: dict[str, Any]) -> Optional[int]:
    """The first player to move in a verigym view, or None once over."""
    to_move = info["info"]["to_move"]
    return to_move[0] if to_move else None


def game_steps_cap(game_id: str) -> int:
    return int(verigym.spec(game_id)["max_steps"])


def _encode(text: str) -> tuple[np.ndarray, bool]:
    data = text.encode("utf-8")[:OBSERVATION_BYTES]
    out = np.zeros(OBSERVATION_BYTES, dtype=np.uint8)
    out[: len(data)] = np.frombuffer(data, dtype=np.uint8)
    return out, len(text.encode("utf-8")) > OBSERVATION_BYTES


class VerigymAECEnv(AECEnv):
    """One verigym game as a PettingZoo AEC env; see the module docs.

    Rewards are the game's per-step rewards (summing to each seat's final
    score's reward); ``infos[agent]["score"]`` holds the seat's final score
    once the game is over. A refused text action leaves the game as it was,
    sets ``infos[agent]["invalid_action"]`` and the same agent moves again.
    """

    metadata = {"render_modes": ["ansi"], "name": "verigym", "is_parallelizable": False}

    def __init__(
        self,
        game_id: str,
        config: Optional[dict[str, Any]] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self._game = verigym.make(game_id, config)
        if self._game.players < 2:
            raise ValueError(
                f"{game_id} is a one-player env: use Gymnasium "
                f"(gymnasium.make(verigym.integrations.gymnasium.gym_id({game_id.split('@')[0]!r})))"
            )
        import json

        slots = action_slots(game_id, None if config is None else json.dumps(config, sort_keys=True))
        self.game_id = game_id
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"verigym/{game_id}")
        self.possible_agents = [f"player_{p}" for p in range(self._game.players)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(slots) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 255, shape=(OBSERVATION_BYTES,), dtype=np.uint8),
                    "action_mask": spaces.Box(0, 1, shape=(slots,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._rng = np.random.default_rng()
        self.agents: list[str] = []

    @property
    def verigym_env(self) -> verigym.Env:
        """The wrapped ``verigym.Env`` (all seats: for tests and tools)."""
        return self._game

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _view(self, agent: str) -> tuple[str, dict[str, Any]]:
        return self._game.observe(self._seat[agent])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        text, info = self._view(agent)
        encoded, _ = _encode(text)
        mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask[: len(self.infos[agent]["legal_actions"])] = 1
        return {"observation": encoded, "action_mask": mask}

    def _refresh_infos(self, extra: Optional[dict[str, dict[str, Any]]] = None) -> None:
        """Each agent's info: its own view's text and legal actions, nothing
        of any other seat's."""
        for agent in self.agents:
            text, info = self._view(agent)
            moving = agent == self.agent_selection and _mover(info) is not None
            legal = info["observation"]["legal_actions"]
            mine: dict[str, Any] = {
                "text": text,
                "observation_cut": _encode(text)[1],
                "legal_actions": moves(self._game, self._seat[agent], legal) if moving else [],
                "sampled_moves": legal is None,
            }
            if extra and agent in extra:
                mine.update(extra[agent])
            self.infos[agent] = mine

    def _select(self, player: Optional[int]) -> None:
        if player is not None:
            self.agent_selection = self.possible_agents[player]

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        card = (options or {}).get("card")
        if card is not None:
            _, info = self._game.reset(card=card)
        else:
            _, info = self._game.reset(int(self._rng.integers(0, np.iinfo(np.int64).max, dtype=np.int64)))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[_mover(info)]
        self._refresh_infos()

    def _action_text(self, agent: str, action: Union[int, np.integer, str]) -> str:
        if isinstance(action, str):
            return action
        legal = self.infos[agent].get("legal_actions") or []
        index = int(action)
        if not 0 <= index < len(legal):
            raise ValueError(
                f"{agent}: action slot {index} holds no legal action now "
                f"({len(legal)} legal: {legal[:8]}{'...' if len(legal) > 8 else ''}); "
                "sample with the observation's action_mask, or pass the action's text"
            )
        return legal[index]

    def step(self, action: Union[int, np.integer, str, None]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        text = self._action_text(agent, action)
        self._cumulative_rewards[agent] = 0.0
        # The trainer view: every seat's reward of the step (each agent's
        # infos stay its own seat's view, from `observe`).
        _, rewards, terminated, truncated, info = self._game.step(text, self._seat[agent], view="all")
        self.rewards = {a: float(rewards[self._seat[a]]) for a in self.agents}
        extra: dict[str, dict[str, Any]] = {}
        if "invalid_action" in info["info"]:
            extra[agent] = {"invalid_action": info["info"]["invalid_action"]}
        if terminated or truncated:
            self.terminations = {a: bool(terminated) for a in self.agents}
            self.truncations = {a: bool(truncated) for a in self.agents}
            for a in self.agents:
                extra.setdefault(a, {})["score"] = self._game.score(self._seat[a])
        else:
            self._select(_mover(info))
        self._refresh_infos(extra)
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return self._game.render()
        return None

    def close(self) -> None:
        """Nothing to release: the game holds no files or processes."""


def env(game_id: str, config: Optional[dict[str, Any]] = None, render_mode: Optional[str] = None) -> VerigymAECEnv:
    """The AEC env of a verigym game (``games/tictactoe-v1``, with
    ``@preset`` where wanted)."""
    return VerigymAECEnv(game_id, config, render_mode)
