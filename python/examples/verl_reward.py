"""verl reward hook on generated tasks (no verl install needed to run this).

In a verl (0.9) run the same function is named in the config:

    reward:
      custom_reward_function:
        path: pkg://verigym.integrations.verl   # or the file's path
        name: compute_score

and the training data comes from ``rows`` written to parquet:

    pandas.DataFrame(rows("math/arithmetic-v1@medium", 10_000)).to_parquet("train.parquet")

(multi-turn envs and games: the agent loop whose config file is
``verigym.integrations.verl.agent_config_path()``).

Run: .venv-py/bin/python python/examples/verl_reward.py
"""

import json

import verigym
from verigym.integrations.verl import compute_score, rows

rows = rows("math/arithmetic-v1@medium", 8, seed=0)

# A stand-in for the policy's responses: the reference answer on even rows
# (wrapped in some reasoning text), a wrong one on odd rows.
env = verigym.make("math/arithmetic-v1@medium")
responses = []
for i, row in enumerate(rows):
    env.reset(card=json.loads(row["reward_model"]["ground_truth"]))
    answer = env.oracle_action() if i % 2 == 0 else "12345"
    responses.append(f"Let me compute step by step... so the answer is {answer}")

for row, response in zip(rows, responses):
    result = compute_score(row["data_source"], response, row["reward_model"]["ground_truth"], row["extra_info"])
    print(f"row {row['extra_info']['index']}: {result}")

scores = [
    compute_score(r["data_source"], response, r["reward_model"]["ground_truth"], r["extra_info"])["score"]
    for r, response in zip(rows, responses)
]
print("mean score:", sum(scores) / len(scores))
