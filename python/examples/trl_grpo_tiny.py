"""End to end: TRL's GRPOTrainer trains on verigym envs, on CPU, with no download.

Two runs of 2 optimizer steps each on a tiny randomly initialised Qwen2 model
(tokenizer trained here with `tokenizers`, see tiny_llm.py):

1. `reward_funcs=[reward_function()]` on math/arithmetic-v1 (single-turn);
2. `environment_factory=environment("tools/calendar-v2")`: the model calls
   the env's tools inside TRL's tool loop and `get_reward` scores the episode.

A random model earns nothing and never writes a tool call, so before the
calendar run the model is taught one constant reply (the oracle's first call,
a few supervised steps): its rollouts then go through TRL's tool loop into the
env. The rewards stay 0 (learning the task is not the point): what this shows
is every TRL code path running on verigym's rows, rewards and env. Needs the
trainers (python/setup-trainers.sh):

    .venv-py/bin/python python/examples/trl_grpo_tiny.py
"""

from __future__ import annotations

import inspect
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")

import torch  # noqa: E402
from datasets import Dataset  # noqa: E402
from trl import GRPOConfig, GRPOTrainer  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tiny_llm import corpus, tiny_model, tiny_tokenizer  # noqa: E402

from verigym.integrations import trl as vg  # noqa: E402


def warm_start(model, tokenizer, prompts, reply, tools, steps=120):
    """Teaches `model` to answer each of `prompts` (messages, rendered with
    `tools` as TRL renders them) with `reply`."""
    reply_ids = tokenizer.encode(reply, add_special_tokens=False)
    batches = []
    for prompt in prompts:
        prompt_ids = tokenizer.apply_chat_template(
            prompt, tools=tools, add_generation_prompt=True, tokenize=True, return_dict=False
        )
        batches.append((torch.tensor([prompt_ids + reply_ids]), torch.tensor([[-100] * len(prompt_ids) + reply_ids])))
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(steps):
        ids, labels = batches[step % len(batches)]
        loss = model(input_ids=ids, labels=labels).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    print(f"warm start: {steps} supervised steps on one reply to {len(prompts)} prompts, loss {loss.item():.3f}")
    return model


def train(name, tokenizer, rows, model=None, **kwargs):
    torch.manual_seed(0)
    args = GRPOConfig(
        output_dir=tempfile.mkdtemp(prefix="verigym-grpo-"),
        per_device_train_batch_size=4,
        num_generations=4,
        max_completion_length=48,
        max_steps=2,
        learning_rate=1e-3,
        logging_steps=1,
        report_to=[],
        use_cpu=True,
        save_strategy="no",
        seed=0,
        max_tool_calling_iterations=4,
    )
    trainer = GRPOTrainer(
        model=model or tiny_model(tokenizer),
        processing_class=tokenizer,
        args=args,
        train_dataset=Dataset.from_list(rows),
        **kwargs,
    )
    start = time.time()
    result = trainer.train()
    print(f"== {name}: {trainer.state.global_step} optimizer steps in {time.time() - start:.1f} s, "
          f"train loss {result.training_loss:.4f}")
    for entry in trainer.state.log_history:
        shown = {k: round(v, 4) if isinstance(v, float) else v for k, v in entry.items()
                 if k.startswith(("reward", "loss", "grad_norm", "tools/", "completions/mean_length", "step"))}
        print("  ", shown)


def main():
    tokenizer = tiny_tokenizer(corpus(["math/arithmetic-v1", "tools/calendar-v2"], n=30))
    print(f"tokenizer: {len(tokenizer)} tokens; model: "
          f"{sum(p.numel() for p in tiny_model(tokenizer).parameters()):,} parameters")
    train(
        "reward_funcs=[reward_function()] on math/arithmetic-v1",
        tokenizer,
        vg.rows("math/arithmetic-v1", 16, seed=0),
        reward_funcs=[vg.reward_function()],
    )
    rows = vg.rows("tools/calendar-v2", 16, seed=0)
    first_call = '<tool_call>\n{"name": "list_people", "arguments": {}}\n</tool_call><|im_end|>'
    torch.manual_seed(0)
    environment = vg.environment("tools/calendar-v2")
    # The env's tool methods, as TRL lists them for the chat template.
    tools = [getattr(environment(), name) for name, _ in inspect.getmembers(environment, inspect.isfunction)
             if name not in ("reset", "get_reward") and not name.startswith("_")]
    model = warm_start(tiny_model(tokenizer), tokenizer, [r["prompt"] for r in rows[:4]], first_call, tools)
    train(
        'environment_factory=environment("tools/calendar-v2")',
        tokenizer,
        rows,
        model=model,
        environment_factory=environment,
    )


if __name__ == "__main__":
    main()
