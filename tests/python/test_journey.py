"""A user's journey through the Python package, end to end: generate task
cards in process and from a running `verigym serve` (the same cards), play
an episode against the server with the `verigym.Client`, and score the same
answers in process and on the server (the same rewards). The Rust half of the
journey is `tests/user_journey.rs`."""

from __future__ import annotations

import os
import re
import subprocess
import threading
from pathlib import Path

import pytest

import verigym

ROOT = Path(__file__).resolve().parents[2]
ENVS = ["math/arithmetic-v1@easy", "logic/countdown-v1@easy", "tools/calendar-v2@easy", "logic/guess-number-v2@easy"]


def server_binary() -> Path:
    if os.environ.get("VERIGYM_BIN"):
        return Path(os.environ["VERIGYM_BIN"])
    return Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "debug" / "verigym"


@pytest.fixture(scope="module")
def client():
    binary = server_binary()
    if not binary.exists():
        pytest.skip(f"no verigym binary at {binary}; build it with `cargo build` or set VERIGYM_BIN")
    process = subprocess.Popen(
        [binary, "serve", "--addr", "127.0.0.1:0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    found: dict[str, str] = {}
    ready = threading.Event()

    def read_stderr():
        for line in process.stderr:
            match = re.search(r"listening on (http://\S+)", line)
            if match and not ready.is_set():
                found["url"] = match.group(1).rstrip("/")
                ready.set()

    threading.Thread(target=read_stderr, daemon=True).start()
    try:
        assert ready.wait(timeout=60), "the server did not start within 60 s"
        yield verigym.Client(found["url"])
    finally:
        process.terminate()
        process.wait(timeout=20)


def oracle_transcript(card: dict) -> list[str]:
    """The actions the env's reference solver takes on `card`: what a user
    records from a model's episode."""
    env = verigym.make(card["env_id"], card["config"])
    env.reset(card=card)
    actions = []
    for _ in range(200):
        action = env.oracle_action()
        actions.append(action)
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return actions
    pytest.fail(f"{card['id']}: the oracle did not finish")


@pytest.mark.parametrize("env_id", ENVS)
def test_served_cards_are_the_cards_made_in_process(client, env_id):
    assert client.generate(env_id, 3, seed=9) == verigym.generate(env_id, 3, seed=9)


@pytest.mark.parametrize("env_id", ENVS)
def test_answers_score_the_same_in_process_and_on_the_server(client, env_id):
    cards = verigym.generate(env_id, 3, seed=4)
    answers = [oracle_transcript(card) for card in cards] + ["\\boxed{0} or \\boxed{1}"] * 3
    cards = cards + cards
    local = verigym.score(cards, answers)
    served = client.score({"card": card, "answer": answer} for card, answer in zip(cards, answers))["results"]
    assert [s["reward"] for s in local] == [s["reward"] for s in served]
    assert [s["passed"] for s in served] == [True] * 3 + [False] * 3


def test_an_episode_played_over_http_ends_as_it_does_in_process(client):
    card = verigym.generate("logic/guess-number-v2@easy", 1, seed=2)[0]
    actions = oracle_transcript(card)
    episode = client.create_episode(card=card)
    answer = episode
    for action in actions:
        answer = client.step(episode["episode_id"], action)
    assert answer["terminated"]
    assert answer["rewards"] == [verigym.score([card], [actions])[0]["reward"]]
