"""Shard verigym.generate and verigym.score over Ray workers.

Each Ray task takes one CPU and runs verigym single-threaded (``threads=1``),
so the workers are the parallelism and throughput grows with them.

Local (starts a Ray instance with 2 CPUs on this machine):

    .venv-py/bin/python python/examples/ray_scale_out.py --n 100000 --workers 1 2

On a Ray cluster the code is the same; only the connection changes:

    ray start --head                              # on the head node
    ray start --address HEAD_IP:6379              # on each worker node
    # every node needs the same verigym wheel:
    #   maturin build --release -m python/Cargo.toml && pip install target/wheels/verigym-*.whl
    # (or ship it per job: ray.init(address="auto", runtime_env={"pip": ["/path/verigym-....whl"]}))
    python ray_scale_out.py --address auto --workers 1 8 32 --n 1000000

``ray.init(address="auto")`` joins the running cluster instead of starting
one; tasks then spread over every node's CPUs.
"""

from __future__ import annotations

import argparse
import json
import time

import ray

import verigym

ENV_ID = "math/arithmetic-v1@medium"


@ray.remote(num_cpus=1)
def generate_shard(env_id: str, seed: int, start: int, n: int) -> tuple[list[str], float]:
    """Cards ``start .. start + n`` as JSON text, and the CPU seconds taken."""
    cpu = time.process_time()
    cards = [json.dumps(c) for c in verigym.generate(env_id, n, seed, start=start, threads=1)]
    return cards, time.process_time() - cpu


@ray.remote(num_cpus=1)
def score_shard(cards: list[str], answers: list[str]) -> tuple[list[float], float]:
    """Rewards of one shard, and the CPU seconds taken."""
    cpu = time.process_time()
    rewards = [s["reward"] for s in verigym.score(cards, answers, threads=1)]
    return rewards, time.process_time() - cpu


def shards(n: int, k: int) -> list[tuple[int, int]]:
    """``k`` consecutive (start, count) ranges covering ``0..n``."""
    size, extra = divmod(n, k)
    out, start = [], 0
    for i in range(k):
        count = size + (i < extra)
        out.append((start, count))
        start += count
    return out


def sharded_generate(env_id: str, n: int, seed: int, workers: int) -> tuple[list[str], float]:
    """The same cards as ``verigym.generate(env_id, n, seed)``, made by
    ``workers`` Ray tasks; returns them (JSON text) and the CPU seconds."""
    parts = ray.get([generate_shard.remote(env_id, seed, s, c) for s, c in shards(n, workers)], timeout=600)
    return [card for cards, _ in parts for card in cards], sum(cpu for _, cpu in parts)


def sharded_score(cards: list[str], answers: list[str], workers: int) -> tuple[list[float], float, float]:
    """Rewards in order, scored by ``workers`` Ray tasks; returns them, the
    wall seconds of the scoring (data already in Ray's object store) and the
    CPU seconds the workers spent."""
    refs = [(ray.put(cards[s : s + c]), ray.put(answers[s : s + c])) for s, c in shards(len(cards), workers)]
    # Start and warm the worker processes outside the timing.
    ray.get([score_shard.remote(cards[:10], answers[:10]) for _ in range(workers)], timeout=120)
    wall = time.perf_counter()
    parts = ray.get([score_shard.remote(c, a) for c, a in refs], timeout=600)
    wall = time.perf_counter() - wall
    return [r for rewards, _ in parts for r in rewards], wall, sum(cpu for _, cpu in parts)


def answers_for(cards: list[str]) -> list[str]:
    """The reference answer on even items, a wrong one on odd items."""
    env = verigym.make(json.loads(cards[0])["env_id"])
    answers = []
    for i, card in enumerate(cards):
        parsed = json.loads(card)
        if env.card is None or env.card["config_hash"] != parsed["config_hash"]:
            env = verigym.make(parsed["env_id"], parsed["config"])
        env.reset(card=parsed)
        answers.append(env.oracle_action() if i % 2 == 0 else "-0.5 or 3")
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="answers to score")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--address", default=None, help='"auto" to join a running Ray cluster')
    parser.add_argument("--env", default=ENV_ID)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=max(args.workers), include_dashboard=False, log_to_driver=False)
    print(f"ray: {ray.cluster_resources().get('CPU', 0):.0f} CPUs; verigym {verigym.__version__}; env {args.env}")

    cards, gen_cpu = sharded_generate(args.env, args.n, args.seed, max(args.workers))
    answers = answers_for(cards)
    print(f"generated {len(cards)} cards on {max(args.workers)} workers ({gen_cpu:.2f} CPU s)")

    baseline = None
    for workers in args.workers:
        rewards, wall, cpu = sharded_score(cards, answers, workers)
        assert sum(rewards) == len(cards[::2]), "every reference answer scores 1, every wrong one 0"
        rate = len(cards) / wall
        baseline = baseline or rate
        print(
            f"score {len(cards)} answers, {workers} worker(s): {wall:.2f} s wall, {cpu:.2f} CPU s, "
            f"{rate:,.0f} answers/s, speed-up x{rate / baseline:.2f}"
        )
    ray.shutdown()


if __name__ == "__main__":
    main()
