"""The verl agent loop ``verigym`` (checked against verl 0.9.1): any verigym
env as a multi-turn rollout. Importing this module imports verl.

Each row's ``reward_model.ground_truth`` holds its label (task card, and the
seat in games; :func:`verigym.integrations.verl.rows` builds them). One
rollout is one episode of that seat against a built-in opponent:

1. the prompt is the row's messages (the seat's first view), with the env's
   tools (OpenAI schemas) given to the chat template where it has tools;
2. the model generates one turn; its tool calls (parsed by verl's tool
   parser, ``rollout.multi_turn.format``) or else its text are the actions;
3. the env answers: tool results as ``tool`` messages, other feedback as a
   ``user`` message, appended with a zero loss mask;
4. repeat until the episode ends, or ``max_assistant_turns`` or the
   response budget runs out; the seat's score is the rollout's reward.

Register it with the agent loop config file the package ships
(:func:`verigym.integrations.verl.agent_config_path`)::

    - name: verigym
      _target_: verigym.integrations.verl_agent.VerigymAgentLoop
      opponent: heuristic

as ``actor_rollout_ref.rollout.agent.agent_loop_config_path=<that path>``.
What reaches the model is the seat's own observations only.
"""

from __future__ import annotations

import logging
from typing import Any, Optional
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopOutput, register
from verl.experimental.agent_loop.tool_parser import ToolParser
from verl.tools.schemas import OpenAIFunctionToolSchema
from verl.utils.profiler import simple_timer

from verigym._verigym import SeatEnv, strip_end_of_turn
from verigym.integrations.episodes import (
    DEFAULT_OPPONENT,
    check_env,
    feedback_text,
    parse_label,
    tool_call_action,
)
from verigym.integrations.verl import AGENT_NAME, SCORE_FIELD

logger = logging.getLogger(__name__)

__all__ = ["VerigymAgentLoop"]


@register(AGENT_NAME)
class VerigymAgentLoop(AgentLoopBase):
    """One seat of a verigym env per rollout; see the module docs.

    Args:
        opponent: the built-in opponent of games (random, heuristic, oracle).
        max_retries: refused actions allowed per turn before a forfeit.
        max_turns: cap on the episode's accepted steps (default: the env's).
    """

    def __init__(
        self,
        *args: Any,
        opponent: str = DEFAULT_OPPONENT,
        max_retries: int = 2,
        max_turns: Optional[int] = None,
        tools: Any = None,
        name: Optional[str] = None,
        **kwargs: Any,
    ):
        del tools, name  # verl's configured tools are not used: the env has its own
        super().__init__(*args, **kwargs)
        self.opponent = opponent
        self.max_retries = max_retries
        self.max_turns = max_turns
        multi_turn = self.rollout_config.multi_turn
        self.max_assistant_turns = multi_turn.max_assistant_turns
        self.tool_parser = ToolParser.get_tool_parser(multi_turn.format, self.tokenizer)
        self.response_length = self.rollout_config.response_length

    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        messages = [dict(m) for m in kwargs["raw_prompt"]]
        episode = parse_label(kwargs["reward_model"]["ground_truth"])
        data_source = kwargs.get("data_source")
        if isinstance(data_source, str) and "/" in data_source:
            check_env(episode, data_source)
        env = SeatEnv(
            episode.env_id, opponent=self.opponent, max_retries=self.max_retries, max_turns=self.max_turns
        )
        observation, _ = env.reset(card=episode.card, seat=episode.seat)
        last = messages[-1].get("content") if messages else None
        if not (isinstance(last, str) and last.rstrip().endswith(observation.strip())):
            messages.append({"role": "user", "content": observation})
        tools = env.tools()
        tool_schemas = [OpenAIFunctionToolSchema.model_validate(t) for t in tools] if tools else None

        metrics: dict[str, Any] = {}
        request_id = uuid4().hex
        prompt_ids = await self.ct_build_initial_tokens(messages, tools=tools)
        token_ids = list(prompt_ids)
        response_mask: list[int] = []
        response_logprobs: Optional[list[float]] = None
        assistant_turns = user_turns = 0
        while not env.done:
            with simple_timer("generate_sequences", metrics):
                output = await self.server_manager.generate(
                    request_id=request_id, prompt_ids=token_ids, sampling_params=sampling_params
                )
            if response_logprobs is None and output.log_probs:
                response_logprobs = [0.0] * len(response_mask)
            merge, response_mask, response_logprobs = await self.ct_merge_assistant_token(
                token_ids,
                output.token_ids,
                response_mask,
                response_logprobs,
                assistant_logprobs=output.log_probs if output.log_probs else None,
            )
            token_ids = merge.token_ids
            assistant_turns += 1

            calls = []
            if tool_schemas:
                content, calls = await self.tool_parser.extract_tool_calls(output.token_ids, tool_schemas)
            text = self.tokenizer.decode(output.token_ids, skip_special_tokens=True)
            assistant: dict[str, Any] = {"role": "assistant", "content": strip_end_of_turn(text)}
            replies: list[dict[str, Any]] = []
            if calls:
                assistant["content"] = strip_end_of_turn(content)
                assistant["tool_calls"] = [
                    {"type": "function", "function": {"name": c.name, "arguments": c.arguments}} for c in calls
                ]
                for call in calls:
                    if env.done:
                        break
                    obs, _, _, _, info = env.step(tool_call_action(call.name, call.arguments))
                    replies.append({"role": "tool", "content": feedback_text(obs, info, tool_result=True)})
            else:
                obs, _, _, _, info = env.step(strip_end_of_turn(text))
                replies.append({"role": "user", "content": feedback_text(obs, info)})
            messages.append(assistant)

            out_of_budget = len(response_mask) >= self.response_length or (
                self.max_assistant_turns and assistant_turns >= self.max_assistant_turns
            )
            if env.done or out_of_budget:
                break
            previous = list(messages)
            messages.extend(replies)
            merge, new_mask, new_logprobs = await self.ct_merge_context_msg(
                previous, messages, token_ids, response_mask, response_logprobs, tools=tools
            )
            if len(new_mask) >= self.response_length:
                break
            token_ids, response_mask, response_logprobs = merge.token_ids, new_mask, new_logprobs
            user_turns += 1

        score = env.score()
        response_ids = token_ids[len(token_ids) - len(response_mask) :]
        prompt_part = token_ids[: len(token_ids) - len(response_mask)]
        result = AgentLoopOutput(
            prompt_ids=prompt_part,
            response_ids=response_ids[: self.response_length],
            response_mask=response_mask[: self.response_length],
            response_logprobs=response_logprobs[: self.response_length] if response_logprobs else None,
            reward_score=float(score["reward"]),
            num_turns=assistant_turns + user_turns + 1,
            metrics=metrics,
            extra_fields={},
        )
        result.extra_fields.update(
            {
                "turn_scores": [],
                "tool_rewards": [],
                SCORE_FIELD: {"reward": float(score["reward"]), "passed": bool(score["passed"])},
                "reward_extra_info": {"verigym_passed": float(score["passed"])},
            }
        )
        return result
