"""OpenRLHF agent file for verigym's multi-turn envs and games (checked
against openrlhf 0.11.2): ``--train.agent_func_path`` at this file.

OpenRLHF loads it with ``importlib.util.spec_from_file_location`` (absolute
imports only) and takes its ``AgentExecutor``; ``MultiTurnAgentExecutor``
(``openrlhf/utils/agent.py``) then makes one :class:`AgentInstance` per
prompt, calls ``reset({"observation": prompt, "label": label})`` and, after
each generation, ``step({"observation_text", "action_text", "label",
"sampling_params"})``, appending ``environment_feedback`` to the token stream
(with a zero action mask) until ``done``.

Each episode is the label's seat against a built-in opponent
(:class:`verigym.SeatEnv`); the feedback is only that seat's view. Set in the
environment of the rollout workers:

* ``VERIGYM_OPPONENT``: ``heuristic`` (default), ``random`` or ``oracle``;
* ``VERIGYM_MAX_RETRIES``: refused actions per turn before a forfeit (2);
* ``VERIGYM_FEEDBACK_TEMPLATE``: how feedback enters the chat, with
  ``{feedback}``. By default it is read from the policy tokenizer's own chat
  template (:func:`verigym.integrations.chat_template.feedback_template`: the
  end of the model's turn, a user turn with the feedback, the next assistant
  prompt), so any model family gets its own markup; a tokenizer without a
  chat template gets ChatML (Qwen's).
"""

from __future__ import annotations

import functools
import os
from typing import Any, Optional

from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor

from verigym._verigym import EnvError, SeatEnv, strip_end_of_turn
from verigym.integrations.chat_template import CHATML_FEEDBACK, feedback_template
from verigym.integrations.episodes import DEFAULT_OPPONENT, feedback_text, parse_label

__all__ = ["AgentExecutor", "AgentInstance", "CHATML_FEEDBACK"]


class Reward(float):
    """A float with ``.item()``: OpenRLHF's executor sums ``rewards.item()``."""

    def item(self) -> float:
        return float(self)


class AgentInstance(AgentInstanceBase):
    """One episode of one seat; see the module docs."""

    def __init__(self, *args: Any, feedback: Optional[str] = None, **kwargs: Any) -> None:
        """``feedback``: the template the executor read from the tokenizer;
        ``VERIGYM_FEEDBACK_TEMPLATE`` overrides it."""
        del args, kwargs
        self.opponent = os.environ.get("VERIGYM_OPPONENT", DEFAULT_OPPONENT)
        self.max_retries = int(os.environ.get("VERIGYM_MAX_RETRIES", "2"))
        self.template = os.environ.get("VERIGYM_FEEDBACK_TEMPLATE") or feedback or CHATML_FEEDBACK
        if "{feedback}" not in self.template:
            raise EnvError("VERIGYM_FEEDBACK_TEMPLATE must contain {feedback}")
        self.env: SeatEnv | None = None
        self.has_tools = False

    async def reset(self, states: dict, **kwargs: Any) -> dict:
        episode = parse_label(states["label"])
        self.env = SeatEnv(episode.env_id, opponent=self.opponent, max_retries=self.max_retries)
        observation, _ = self.env.reset(card=episode.card, seat=episode.seat)
        self.has_tools = self.env.tools() is not None
        prompt = states["observation"]
        if observation.strip() not in prompt:
            raise EnvError(
                "the prompt does not hold the seat's first view; build the data with "
                "verigym.integrations.openrlhf.rows (same env, seat and opponent)"
            )
        return {"observation": prompt}

    async def step(self, states: dict, **kwargs: Any) -> dict:
        if self.env is None:
            raise EnvError("step before reset: OpenRLHF calls reset(states) first")
        observation, _, terminated, truncated, info = self.env.step(strip_end_of_turn(states["action_text"]))
        done = terminated or truncated
        score = self.env.score()
        feedback = feedback_text(observation, info, tool_result=self.has_tools)
        return {
            # The whole reward at the end: the executor sums these.
            "rewards": Reward(score["reward"] if done else 0.0),
            "scores": float(score["reward"]),
            "environment_feedback": "" if done else self.template.format(feedback=feedback),
            "done": done,
            "sampling_params": states.get("sampling_params"),
            "extra_logs": {"verigym_passed": float(score["passed"])},
        }


class AgentExecutor(MultiTurnAgentExecutor):
    """What OpenRLHF's ``_load_agent_executor`` instantiates. It sees the
    policy tokenizer on each ``execute`` and gives the episode the feedback
    template read from that tokenizer's chat template (once per tokenizer)."""

    def __init__(self) -> None:
        super().__init__(AgentInstance)
        self._templates: dict[int, str] = {}

    def feedback_for(self, tokenizer: Any) -> str:
        key = id(tokenizer)
        if key not in self._templates:
            self._templates[key] = feedback_template(tokenizer)
        return self._templates[key]

    async def execute(self, prompt, label, sampling_params, max_length: int, hf_tokenizer, llm_engine, images=None):
        # The base executor makes each episode with `agent_instance_cls()`.
        self.agent_instance_cls = functools.partial(AgentInstance, feedback=self.feedback_for(hf_tokenizer))
        return await super().execute(
            prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine, images=images
        )
