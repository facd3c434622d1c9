"""Shared helpers of the verigym Python tests."""

from __future__ import annotations

import pytest

import verigym


def play_with_oracle(env: verigym.Env, seed: int, max_steps: int = 10_000):
    """Plays one episode with the reference solver for every player (the
    trainer view: every seat's rewards); returns the summed per-step rewards
    and the last step's outputs."""
    observation, info = env.reset(seed=seed, view="all")
    assert isinstance(observation, str) and observation
    total = [0.0] * env.players
    for _ in range(max_steps):
        action = env.oracle_action()
        assert action is not None, f"{env.id} has no oracle move at step {info['info']['steps']}"
        observation, reward, terminated, truncated, info = env.step(action, view="all")
        rewards = [reward] if env.players == 1 else reward
        assert rewards == info["rewards"]
        total = [t + r for t, r in zip(total, rewards)]
        if terminated or truncated:
            return total, (observation, reward, terminated, truncated, info)
    pytest.fail(f"{env.id}: no end after {max_steps} oracle steps")


def skip_without_protocols() -> None:
    """Skips a protocol test module only when the protocol packages were
    left out on purpose (`VERIGYM_PY_PROTOCOLS=0 python/setup.sh`)."""
    import os

    if os.environ.get("VERIGYM_PY_PROTOCOLS") == "0":
        pytest.skip("VERIGYM_PY_PROTOCOLS=0: Gymnasium, PettingZoo and SkyRL-Gym are not installed", allow_module_level=True)
