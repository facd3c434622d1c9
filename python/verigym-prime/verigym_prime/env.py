"""The verigym env: plays each task's episode turn by turn.

The env is the run's user, as in verifiers' TextArena env: it opens the
exchange with the task's prompt (the seat's first view), turns each model
reply into actions, steps a `verigym.SeatEnv` host-side (built-in opponents
move in between) and answers with what the seat sees next: the next
observation, a tool call's result, or the env's reason for refusing an
action. A finished episode ends the exchange. Model text is only parsed by
the env, never run on the host. Single-turn tasks are one turn of the same
loop; the reward is the task's (`VerigymTask.verigym`).
"""

from __future__ import annotations

import verifiers.v1 as vf

from verigym.integrations.episodes import feedback_text

from verigym_prime.actions import assistant_actions
from verigym_prime.taskset import VerigymTask


class VerigymEnvConfig(vf.EnvConfig):
    player: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())
    """The model's seat. Runs in-process by default: the verigym harness
    only calls the model, so it needs no sandbox."""


class VerigymEnv(vf.Env[VerigymEnvConfig]):
    async def run(self, task: VerigymTask, agents: vf.Agents) -> None:
        env = task.seat_env()
        async with agents.player.interaction(task) as interaction:
            segment = await interaction.turn()
            while not segment.terminated:
                replies = self.play(env, segment.messages)
                if env.done or not replies:
                    break
                segment = await interaction.turn(replies)
        interaction.trace.info["verigym_live_score"] = env.score()["reward"]

    @staticmethod
    def play(env, messages: vf.Messages) -> vf.Messages:
        """Steps `env` with the actions of a segment's assistant messages (all
        of them, in order, as the reward's replay does) and returns the
        answer: a tool message per tool call, else one user message."""
        replies: vf.Messages = []
        feedback: list[str] = []
        for message in messages:
            if not isinstance(message, vf.AssistantMessage):
                continue
            calls = message.tool_calls or []
            for index, action in enumerate(assistant_actions(message)):
                if env.done:
                    return replies
                observation, _, _, _, info = env.step(action)
                text = feedback_text(observation, info, tool_result=bool(calls))
                if calls:
                    replies.append(vf.ToolMessage(tool_call_id=calls[index].id, content=text))
                else:
                    feedback.append(text)
        if feedback:
            replies.append(vf.UserMessage(content="\n\n".join(feedback)))
        return replies
