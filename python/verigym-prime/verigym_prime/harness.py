"""The verigym chat harness: one model call per turn, in-process.

verigym's episodes need no program in a sandbox: the env steps the episode
and the model only replies. So the taskset's default harness (verifiers
picks the harness a taskset package exports) sends the conversation to the
rollout's interception endpoint, as verifiers' harness contract allows
("a harness may run its loop in-process ... as long as every model call
goes through endpoint + secret"), and executes nothing the model writes:
tool calls come back to `VerigymEnv` as the episode's actions. The env's
tools are offered as OpenAI function schemas. Any other harness can be
pinned instead (`--env.player.harness.id null`).
"""

from __future__ import annotations

import verifiers.v1 as vf
from openai import AsyncOpenAI
from verifiers.v1.dialects.chat import message_to_wire


class VerigymHarnessConfig(vf.HarnessConfig):
    pass


class VerigymHarness(vf.Harness[VerigymHarnessConfig]):
    APPENDS_SYSTEM_PROMPT = True
    SUPPORTS_RESUME = True
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(self, ctx, trace, runtime, endpoint, secret, mcp_urls, data, tool_interception_url=None):
        system_prompt, prompt = self.resolve_prompt(data)
        messages: list[dict] = []
        if system_prompt:
            messages.append({"role": "system", "content": system_prompt})
        if isinstance(prompt, str):
            messages.append({"role": "user", "content": prompt})
        elif prompt is not None:
            messages.extend(message_to_wire(message) for message in prompt)
        request: dict = {"model": ctx.model, "messages": messages}
        tools = getattr(data, "tools", None)
        if tools:
            request["tools"] = tools
        async with AsyncOpenAI(base_url=endpoint, api_key=secret, max_retries=0) as client:
            # The interception records the reply on the trace; the env reads it there.
            await client.chat.completions.create(**request)
        return vf.ProgramResult(exit_code=0, stdout="", stderr="")
