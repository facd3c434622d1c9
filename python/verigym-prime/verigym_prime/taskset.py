"""The verigym taskset: task cards from `verigym.generate`, scored by the
env's own verifier.

A task is one card of one env (and, in games, the seat the model plays). Its
prompt is what that seat sees first; the card, the seat and the episode
rules travel in the task data, never in the prompt. The one reward,
`verigym`, re-scores the finished trace from its transcript on a fresh env:
a single-turn answer through `verigym.score`, a multi-turn episode or game
by replaying the model's actions (the same actions `VerigymEnv` played).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any, Literal

import verifiers.v1 as vf
from pydantic import Field, field_validator, model_validator

import verigym
from verigym.integrations.episodes import SYSTEM_PROMPT

from verigym_prime.actions import assistant_actions, final_answer

#: Cards generated per call of `verigym.generate` when the taskset is infinite.
CHUNK = 64


class VerigymConfig(vf.TasksetConfig):
    """Which tasks load, under `--env.taskset.*`."""

    envs: list[str] = Field(default_factory=lambda: ["math/arithmetic-v1"], min_length=1)
    """Env ids, each optionally with `@preset` or `@LEVEL` (`verigym list`);
    tasks alternate between them."""
    n: int | None = Field(None, ge=1)
    """Tasks per env; None for an endless stream (bound a run with `-n`)."""
    seed: int = Field(0, ge=0)
    """Batch seed of `verigym.generate`: the same seed gives the same tasks."""
    config: dict[str, Any] = Field(default_factory=dict)
    """Config overrides applied to every env (as `verigym generate --config`)."""
    seat: int | None = Field(None, ge=0)
    """The seat the model plays in games (one-player envs: always 0); None
    alternates seats task by task."""
    opponent: Literal["random", "heuristic", "oracle"] = "heuristic"
    """The built-in opponent of games."""
    max_retries: int = Field(2, ge=0)
    """Refused actions allowed on one turn before the seat forfeits."""
    max_turns: int | None = Field(None, ge=1)
    """Turn cap of multi-turn episodes (None: the env's own)."""

    @field_validator("envs")
    @classmethod
    def _known_envs(cls, envs: list[str]) -> list[str]:
        for env_id in envs:
            try:
                verigym.make(env_id)
            except verigym.EnvError as e:
                # verigym's message names the id and what exists (ids, presets, levels).
                raise ValueError(str(e)) from None
        return envs

    @model_validator(mode="after")
    def _config_applies(self) -> VerigymConfig:
        for env_id in self.envs:
            try:
                env = verigym.make(env_id, self.config or None)
            except verigym.EnvError as e:
                raise ValueError(str(e)) from None
            if self.seat is not None and env.players > 1 and self.seat >= env.players:
                raise ValueError(f"{env_id} has {env.players} seat(s); seat {self.seat} does not exist")
        return self


class VerigymData(vf.TaskData):
    """One episode: the card, the seat and the rules it is played under."""

    env_id: str
    """The env id as configured (with its preset or level)."""
    kind: Literal["single_turn", "multi_turn", "game"]
    card: dict[str, Any]
    """The task card (hidden from the model; it names the seed)."""
    seat: int = 0
    opponent: str = "heuristic"
    max_retries: int = 2
    max_turns: int | None = None
    env_config: dict[str, Any] = Field(default_factory=dict)
    tools: list[dict[str, Any]] | None = None
    """The env's tools as OpenAI function schemas, offered to the model."""


class VerigymTask(vf.Task[VerigymData, vf.State, vf.TaskConfig]):
    def seat_env(self) -> verigym.SeatEnv:
        """A fresh env at the start of this task, as the task's seat sees it."""
        data = self.data
        env = verigym.SeatEnv(
            data.env_id,
            data.env_config or None,
            opponent=data.opponent,  # type: ignore[arg-type]
            max_retries=data.max_retries,
            max_turns=data.max_turns,
        )
        env.reset(card=data.card, seat=data.seat)
        return env

    def verdict(self, trace: vf.Trace) -> dict[str, Any]:
        """The env's verifier on the transcript (`{"reward", "passed", ...}`):
        the model text is only parsed by the env, never run on the host.
        Computed once per trace; the reward and the metric read it."""
        cache = self.__dict__.setdefault("_scores", {})
        if trace.id not in cache:
            task = self.data
            messages = trace.branches[-1].messages if trace.branches else []
            if task.kind == "single_turn":
                [result] = verigym.score([task.card], [final_answer(messages)])
                if result["reward"] is None:
                    # No verdict is not a zero: fail the rollout so it is dropped.
                    raise RuntimeError(f"verigym could not judge this answer: {result['no_verdict']}")
            else:
                env = self.seat_env()
                for message in messages:
                    for action in assistant_actions(message):
                        if env.done:
                            break
                        env.step(action)
                result = dict(env.score())
            cache[trace.id] = result
        return cache[trace.id]

    @vf.reward
    async def verigym(self, trace: vf.Trace) -> float:
        """The env's reward (games: the seat's, in [-1, 1])."""
        return float(self.verdict(trace)["reward"])

    @vf.metric
    async def passed(self, trace: vf.Trace) -> float:
        """1 when the env counts the episode as solved (a game: won)."""
        return float(self.verdict(trace)["passed"])


class VerigymTaskset(vf.Taskset[VerigymTask, VerigymConfig]):
    """Tasks of the configured envs, alternating env by env: finite with
    `n` tasks per env, else endless (`INFINITE`, chunks of `CHUNK` cards)."""

    INFINITE = True

    def __init__(self, config: VerigymConfig) -> None:
        super().__init__(config)
        if config.n is not None:
            self.INFINITE = False

    def load(self) -> Iterator[VerigymTask]:
        config = self.config
        streams = [self._env_tasks(env_id) for env_id in config.envs]
        for round_ in itertools.count():
            if config.n is not None and round_ >= config.n:
                return
            for stream in streams:
                yield next(stream)

    def _env_tasks(self, env_id: str) -> Iterator[VerigymTask]:
        config = self.config
        info = verigym.spec(env_id.split("@", 1)[0])
        players = info["players"]
        overrides = config.config or None
        seat_env = None
        tools = None
        if info["kind"] != "single_turn":
            seat_env = verigym.SeatEnv(
                env_id, overrides, opponent=config.opponent, max_retries=config.max_retries, max_turns=config.max_turns
            )
        for start in itertools.count(0, CHUNK):
            size = CHUNK if config.n is None else min(CHUNK, config.n - start)
            if size <= 0:
                return
            cards = verigym.generate(env_id, size, config.seed, config=overrides, start=start)
            for offset, card in enumerate(cards):
                index = start + offset
                seat = 0 if players == 1 else (index % players) if config.seat is None else config.seat
                if seat_env is None:
                    prompt = card["prompt"]
                else:
                    prompt, _ = seat_env.reset(card=card, seat=seat)
                    tools = seat_env.tools()
                yield VerigymTask(
                    VerigymData(
                        name=f"{env_id}#{index}" + (f"/seat{seat}" if players > 1 else ""),
                        prompt=prompt,
                        system_prompt=SYSTEM_PROMPT,
                        env_id=env_id,
                        kind=info["kind"],
                        card=card,
                        seat=seat,
                        opponent=config.opponent,
                        max_retries=config.max_retries,
                        max_turns=config.max_turns,
                        env_config=config.config,
                        tools=tools,
                    ),
                    config.task,
                )
