"""Sharding generate and score over local Ray workers (bounded in time:
every ray.get has a timeout). Prints the 1 vs 2 worker speed-up; the
benchmark proper is examples/ray_scale_out.py."""

from __future__ import annotations

import json
import os
import sys
import time

import pytest

import verigym

ray = pytest.importorskip("ray", reason="ray is not installed (python/setup.sh installs it unless VERIGYM_PY_RAY=0)")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
import ray_scale_out  # noqa: E402

N = int(os.environ.get("VERIGYM_RAY_TEST_N", "100000"))


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_shards_cover_the_range():
    assert ray_scale_out.shards(10, 3) == [(0, 4), (4, 3), (7, 3)]
    assert sum(c for _, c in ray_scale_out.shards(N, 2)) == N


def test_sharded_generate_equals_one_batch(local_ray):
    cards, _ = ray_scale_out.sharded_generate("logic/sudoku-v1@easy", 50, 3, workers=2)
    assert [json.loads(c) for c in cards] == verigym.generate("logic/sudoku-v1@easy", 50, 3)


def test_sharded_score_1_vs_2_workers(local_ray, capsys):
    cards, _ = ray_scale_out.sharded_generate(ray_scale_out.ENV_ID, N, 0, workers=2)
    answers = ray_scale_out.answers_for(cards)
    local = [s["reward"] for s in verigym.score(cards, answers)]
    rates = {}
    for workers in (1, 2):
        rewards, wall, cpu = ray_scale_out.sharded_score(cards, answers, workers)
        assert rewards == local, f"{workers} worker(s) disagree with the in-process scores"
        rates[workers] = (N / wall, cpu)
    assert sum(local) == len(cards[::2])
    with capsys.disabled():
        print(
            f"\nray: scored {N} math answers: 1 worker {rates[1][0]:,.0f}/s ({rates[1][1]:.2f} CPU s), "
            f"2 workers {rates[2][0]:,.0f}/s ({rates[2][1]:.2f} CPU s): speed-up x{rates[2][0] / rates[1][0]:.2f} "
            f"(load average {os.getloadavg()[0]:.1f} at {time.strftime('%H:%M:%S')})"
        )
