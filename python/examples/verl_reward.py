"""verl reward hook on generated tasks (no verl install needed to run this).

In a verl run the same function is named in the config:

    custom_reward_function:
      path: <site-packages>/verigym/adapters.py   # or a copy of it
      name: compute_score          # or compute_score_batch with reward_model.reward_manager=batch

and the training data comes from ``verl_rows`` written to parquet:

    pandas.DataFrame(verl_rows("math/arithmetic-v1@medium", 10_000)).to_parquet("train.parquet")

Run: .venv-py/bin/python python/examples/verl_reward.py
"""

import json

import verigym
from verigym.adapters import compute_score, compute_score_batch, verl_rows

rows = verl_rows("math/arithmetic-v1@medium", 8, seed=0)

# A stand-in for the policy's responses: the reference answer on even rows
# (wrapped in some reasoning text), a wrong one on odd rows.
env = verigym.make("math/arithmetic-v1@medium")
responses = []
for i, row in enumerate(rows):
    env.reset(card=json.loads(row["reward_model"]["ground_truth"]))
    answer = env.oracle_action() if i % 2 == 0 else "12345"
    responses.append(f"Let me compute step by step... so the answer is \\boxed{{{answer}}}")

for row, response in zip(rows, responses):
    result = compute_score(row["data_source"], response, row["reward_model"]["ground_truth"], row["extra_info"])
    print(f"{row['extra_info']['task_id']}: {result}")

batch = compute_score_batch(
    [r["data_source"] for r in rows],
    responses,
    [r["reward_model"]["ground_truth"] for r in rows],
    [r["extra_info"] for r in rows],
)
print("batch mean score:", sum(b["score"] for b in batch) / len(batch))
