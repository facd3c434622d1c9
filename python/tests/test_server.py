"""`verigym serve` over real HTTP on loopback: env list, batch score, a full
multi-turn episode and a game, checked against the in-process package.

The server binary is $VERIGYM_BIN, else $CARGO_TARGET_DIR/debug/verigym,
else target/debug/verigym; the tests skip when it has no `serve` command."""

from __future__ import annotations

import json
import os
import re
import subprocess
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from test_score import oracle_answers, unboxed

import verigym

ROOT = Path(__file__).resolve().parents[2]


def server_binary() -> Path:
    if os.environ.get("VERIGYM_BIN"):
        return Path(os.environ["VERIGYM_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "debug" / "verigym"


@pytest.fixture(scope="module")
def server():
    binary = server_binary()
    if not binary.exists():
        pytest.skip(f"no verigym binary at {binary}; build it with `cargo build` or set VERIGYM_BIN")
    probe = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True, timeout=60)
    if probe.returncode != 0:
        pytest.skip(f"{binary} has no `serve` command yet: {probe.stderr.strip()[:200]}")
    process = subprocess.Popen(
        [binary, "serve", "--addr", "127.0.0.1:0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    found: dict[str, str] = {}
    lines: list[str] = []

    def read_stderr():
        for line in process.stderr:
            lines.append(line)
            match = re.search(r"listening on (http://\S+)", line)
            if match and "url" not in found:
                found["url"] = match.group(1).rstrip("/")
                ready.set()

    ready = threading.Event()
    threading.Thread(target=read_stderr, daemon=True).start()
    if not ready.wait(timeout=60):
        process.kill()
        pytest.fail(f"the server printed no `listening on http://ADDR` line in 60 s: {''.join(lines)[-2000:]}")
    yield found["url"]
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("the server did not shut down within 20 s of SIGTERM")


def call(url: str, method: str = "GET", body=None, expect=200, token=None):
    """The JSON answer of one request; `expect` is the status, or a tuple
    of acceptable ones (error codes the contract leaves open); `token` goes
    in `Authorization: Bearer`."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, payload = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, payload = error.code, error.read()
    answer = json.loads(payload) if payload else None
    allowed = expect if isinstance(expect, tuple) else (expect,)
    assert status in allowed, f"{method} {url}: {status} {answer}"
    if status >= 400:
        assert isinstance(answer, dict) and answer.get("error"), f"an error answer without a message: {answer}"
    return answer


def obs_text(view) -> str:
    observation = view["observation"]
    return observation["text"] if isinstance(observation, dict) else observation


def test_health_and_env_list_match_the_package(server):
    assert call(f"{server}/healthz")["status"] == "ok"
    envs = call(f"{server}/v1/envs")["envs"]
    assert [e["id"] for e in envs] == verigym.list_envs()


def test_generate_matches_the_package(server):
    cards = call(f"{server}/v1/generate", "POST", {"id": "logic/sudoku-v1@easy", "n": 3, "seed": 5})["cards"]
    assert cards == verigym.generate("logic/sudoku-v1@easy", 3, seed=5)


def test_batch_score_right_wrong_and_bad_items(server):
    cards = verigym.generate("math/arithmetic-v1", 30, seed=2)
    answers = oracle_answers(cards)
    items = [{"card": c, "answer": a if i % 2 == 0 else f"{a} or \\boxed{{{unboxed(a)}1}}"} for i, (c, a) in enumerate(zip(cards, answers))]
    items.append({"card": {"not": "a card"}, "answer": "1"})
    items.append({"card": cards[0], "answer": ""})
    out = call(f"{server}/v1/score", "POST", {"items": items})
    results = out["results"]
    assert len(results) == len(items)
    assert [r["passed"] for r in results[:30]] == [i % 2 == 0 for i in range(30)]
    local = verigym.score(cards, [it["answer"] for it in items[:30]])
    assert [r["reward"] for r in results[:30]] == [s["reward"] for s in local]
    assert "error" in results[30] and results[30]["index"] == 30
    assert results[31]["passed"] is False
    assert out["summary"]["errors"] == 1 and out["summary"]["passed"] == 15
    call(f"{server}/v1/score", "POST", {"itemz": []}, expect=400)


def test_full_multi_turn_episode(server):
    local = verigym.make("logic/guess-number-v2")
    text, _ = local.reset(seed=4)
    view = call(f"{server}/v1/episodes", "POST", {"id": "logic/guess-number-v2", "seed": 4})
    episode, token = view["episode_id"], view["tokens"]["creator"]
    assert obs_text(view) == text and not view["terminated"]
    # Without the episode's token it is as if it did not exist.
    call(f"{server}/v1/episodes/{episode}/step", "POST", {"action": "50"}, expect=404)
    # A refused action is an error answer and leaves the episode as it was.
    call(f"{server}/v1/episodes/{episode}/step", "POST", {"action": "banana"}, expect=400, token=token)
    turns = 0
    while True:
        action = local.oracle_action()
        text, reward, terminated, truncated, _ = local.step(action)
        view = call(f"{server}/v1/episodes/{episode}/step", "POST", {"action": action}, token=token)
        turns += 1
        assert obs_text(view) == text
        assert view["reward"] == pytest.approx(reward)
        assert (view["terminated"], view["truncated"]) == (terminated, truncated)
        if terminated or truncated:
            break
    assert turns >= 2
    assert view["info"]["scores"][0]["passed"]
    shown = call(f"{server}/v1/episodes/{episode}", token=token)
    assert shown["terminated"] and shown["episode_id"] == episode
    call(f"{server}/v1/episodes/{episode}/step", "POST", {"action": "1"}, expect=(400, 409), token=token)
    assert call(f"{server}/v1/episodes/{episode}", "DELETE", token=token)["deleted"]
    call(f"{server}/v1/episodes/{episode}", expect=404, token=token)


def test_game_episode_with_two_players(server):
    local = verigym.make("games/tictactoe-v1")
    _, info = local.reset(seed=1, view="all")
    view = call(f"{server}/v1/episodes", "POST", {"id": "games/tictactoe-v1", "seed": 1})
    episode, seats, creator = view["episode_id"], view["tokens"]["seats"], view["tokens"]["creator"]
    assert view["players"] == 2
    while True:
        player = info["info"]["current_player"]
        assert view["info"]["current_player"] == player
        other = 1 - player
        call(
            f"{server}/v1/episodes/{episode}/step",
            "POST",
            {"action": local.random_action(other), "player": other},
            expect=(400, 409),
            token=seats[other],
        )
        action = local.oracle_action()
        _, rewards, terminated, truncated, info = local.step(action, view="all")
        # Each seat plays with its own token.
        view = call(f"{server}/v1/episodes/{episode}/step", "POST", {"action": action, "player": player}, token=seats[player])
        # A seat's view holds its own reward; every seat's only once the game is over.
        assert view["reward"] == pytest.approx(rewards[player])
        if terminated or truncated:
            assert view["rewards"] == pytest.approx(rewards)
            break
        assert "rewards" not in view
    final = [s["reward"] for s in view["info"]["scores"]]
    assert final == pytest.approx([s["reward"] for s in info["info"]["scores"]])
    assert sum(final) == pytest.approx(0.0)
    call(f"{server}/v1/episodes/{episode}", "DELETE", expect=403, token=seats[0])
    call(f"{server}/v1/episodes/{episode}", "DELETE", token=creator)


#: Keys of a server answer around the view: the episode's id, and at creation its tokens and seed.
ENVELOPE = {"episode_id", "tokens", "seed"}


def assert_same_view(answer: dict, info: dict, where: str) -> None:
    """The server's answer is the package's info, key for key and value for
    value (one Rust type makes both), but for the retry rule: the server
    forfeits past 2 refusals, `verigym.Env` sets no limit."""
    served = {k: v for k, v in answer.items() if k not in ENVELOPE}
    local = json.loads(json.dumps(info))
    assert isinstance(served["info"].pop("retries_left"), int), where
    assert local["info"].pop("retries_left") is None, where
    assert set(served) == set(local) and set(served["info"]) == set(local["info"]), where
    assert served == local, where


@pytest.mark.parametrize("game_id", ["games/kuhn-poker-v1", "games/tictactoe-v1", "logic/guess-number-v2"])
def test_the_server_and_the_package_answer_the_same_seat_views(server, game_id):
    local = verigym.make(game_id)
    _, info = local.reset(seed=2)
    answer = call(f"{server}/v1/episodes", "POST", {"id": game_id, "seed": 2})
    episode, seats = answer["episode_id"], answer["tokens"]["seats"]
    assert_same_view(answer, info, "create")
    path = f"{server}/v1/episodes/{episode}"
    for turn in range(40):
        for seat in range(local.players):
            _, own = local.observe(seat)
            assert_same_view(call(path, token=seats[seat]), own, f"turn {turn}, seat {seat} reads")
        to_move = info["info"]["to_move"]
        if not to_move:
            break
        player = to_move[0]
        action = local.oracle_action(player) or local.random_action(player, seed=turn)
        _, reward, terminated, truncated, info = local.step(action, player)
        answer = call(f"{path}/step", "POST", {"action": action}, token=seats[player])
        assert_same_view(answer, info, f"turn {turn}, seat {player} steps")
        assert answer["reward"] == reward
    assert info["terminated"] or info["truncated"]
    assert "card_id" in info and len(info["info"]["scores"]) == local.players


def test_the_server_and_the_package_answer_the_same_trainer_views(server):
    local = verigym.make("games/kuhn-poker-v1")
    _, info = local.reset(seed=5, view="all")
    answer = call(f"{server}/v1/episodes", "POST", {"id": "games/kuhn-poker-v1", "seed": 5, "view": "all"})
    assert_same_view(answer, info, "create")
    path, creator = f"{server}/v1/episodes/{answer['episode_id']}", answer["tokens"]["creator"]
    for turn in range(20):
        if not info["info"]["to_move"]:
            break
        player = info["info"]["to_move"][0]
        action = local.random_action(player, seed=turn)
        _, rewards, _, _, info = local.step(action, view="all")
        answer = call(f"{path}/step", "POST", {"action": action}, token=creator)
        assert_same_view(answer, info, f"turn {turn}")
        assert answer["rewards"] == rewards and info["info"]["view"] == "all"
    assert not info["info"]["to_move"]


def test_errors_are_json_with_a_message(server):
    out = call(f"{server}/v1/episodes", "POST", {"id": "logic/sudok-v1"}, expect=(400, 404))
    assert "logic/sudoku-v1" in out["error"]
    out = call(f"{server}/v1/episodes/ep-nope", expect=404)
    assert "no episode" in out["error"]
