"""TRL reward function on generated tasks (no TRL install needed to run this).

With TRL installed, the same pieces plug into GRPO:

    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer
    from verigym.integrations.trl import reward_function as make_trl_reward
from verigym.integrations.trl import rows as trl_rows

    train = Dataset.from_list(rows("logic/countdown-v1@easy", 5_000))
    trainer = GRPOTrainer(model="Qwen/Qwen2.5-0.5B-Instruct", reward_funcs=[reward_function()],
                          train_dataset=train, args=GRPOConfig(output_dir="out"))
    trainer.train()

Run: .venv-py/bin/python python/examples/trl_reward.py
"""

import json

import verigym
from verigym.integrations.trl import reward_function as make_trl_reward
from verigym.integrations.trl import rows as trl_rows

rows = trl_rows("math/fractions-v1@easy", 6, seed=0)
reward = make_trl_reward()

# TRL calls the reward with the prompts, the sampled completions (here
# conversational: lists of messages) and every other dataset column.
env = verigym.make("math/fractions-v1@easy")
completions = []
for i, row in enumerate(rows):
    env.reset(card=json.loads(row["card"]))
    answer = env.oracle_action() if i % 3 else "I am not sure, maybe 7/3?"
    completions.append([{"role": "assistant", "content": f"<think>...</think> {answer}"}])

rewards = reward(
    prompts=[r["prompt"] for r in rows],
    completions=completions,
    card=[r["card"] for r in rows],
)
for row, completion, r in zip(rows, completions, rewards):
    print(f"{r:.1f}  {completion[0]['content'][:60]!r}")

# Declared shaping terms (format bonus, length penalty) ride along:
shaped = make_trl_reward(shaping={"format_think": 0.1})
print("with a <think> format bonus:", shaped([r["prompt"] for r in rows], completions, card=[r["card"] for r in rows]))
