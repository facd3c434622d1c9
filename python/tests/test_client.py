"""`verigym.Client` against a real `verigym serve` on loopback: generate,
batch score, episodes (create/step/get/delete), per-seat views, typed errors,
and retries on 503 (the last against a loopback stub that answers 503
first, since a real server's queue cannot be filled on cue)."""

from __future__ import annotations

import contextlib
import http.server
import json
import re
import subprocess
import threading

import pytest
from test_score import oracle_answers
from test_server import server_binary

import verigym
from verigym.client import BadRequest, Busy, Conflict, Forbidden, NotFound, PayloadTooLarge, TooManyEpisodes, Unreachable


@contextlib.contextmanager
def serving(*flags: str):
    """A `verigym serve` on a free port with `flags`; yields its URL."""
    binary = server_binary()
    if not binary.exists():
        pytest.skip(f"no verigym binary at {binary}; build it with `cargo build` or set VERIGYM_BIN")
    process = subprocess.Popen(
        [binary, "serve", "--addr", "127.0.0.1:0", *flags], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    found: dict[str, str] = {}
    ready = threading.Event()

    def read_stderr():
        for line in process.stderr:
            match = re.search(r"listening on (http://\S+)", line)
            if match and "url" not in found:
                found["url"] = match.group(1).rstrip("/")
                ready.set()

    threading.Thread(target=read_stderr, daemon=True).start()
    try:
        assert ready.wait(timeout=60), "the server did not start within 60 s"
        yield found["url"]
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            raise


@pytest.fixture(scope="module")
def client():
    with serving() as url:
        yield verigym.Client(url)


def test_generate_and_batch_score_match_the_package(client):
    cards = client.generate("math/arithmetic-v1", n=6, seed=2)
    assert cards == verigym.generate("math/arithmetic-v1", 6, seed=2)
    answers = oracle_answers(cards)
    items = [{"card": c, "answer": a if i % 2 == 0 else "42 or 43"} for i, (c, a) in enumerate(zip(cards, answers))]
    out = client.score(items)
    assert [r["passed"] for r in out["results"]] == [True, False] * 3
    assert out["summary"]["passed"] == 3


def test_a_multi_turn_episode_from_create_to_delete(client):
    episode = client.create_episode("logic/guess-number-v2", seed=4)
    episode_id = episode["episode_id"]
    assert episode["info"]["view"] == 0
    with pytest.raises(BadRequest, match="invalid action"):
        client.step(episode_id, "banana")
    view = episode
    for _ in range(64):
        lo, hi = view["observation"]["structured"]["known_bounds"]
        view = client.step(episode_id, str(lo + (hi - lo) // 2))
        if view["terminated"]:
            break
    assert view["terminated"] and view["reward"] == 1.0
    assert client.get_episode(episode_id)["terminated"] is True
    with pytest.raises(Conflict, match="over"):
        client.step(episode_id, "1")
    assert client.delete_episode(episode_id)["deleted"] is True
    with pytest.raises(NotFound, match="no episode"):
        client.get_episode(episode_id)


def kuhn_card_with_other_opponent_card(card: dict, opponent: int) -> dict:
    other = dict(card, task=json.loads(json.dumps(card["task"])))
    deal = other["task"]["deals"][0]
    deal[opponent] = next(c for c in range(3) if c not in deal)
    return other


def test_each_seat_sees_only_its_own_card_until_the_showdown(client):
    """Two Kuhn poker deals that differ only in seat 0's card: every answer
    made for seat 1 is the same in both until the hand is over."""
    for seed in range(6):
        card = verigym.generate("games/kuhn-poker-v1", 1, seed=seed)[0]
        pair = [card, kuhn_card_with_other_opponent_card(card, 0)]
        answers: list[list[dict]] = [[], []]
        for index, deal in enumerate(pair):
            episode = client.create_episode(card=deal)
            episode_id = episode["episode_id"]
            assert episode["info"]["view"] == 0 and "prompt" not in episode["info"]
            client.step(episode_id, "check")
            seen = client.get_episode(episode_id, player=1)
            assert seen["info"]["view"] == 1
            assert set(seen["observations"]) == {"1"} and "scores" not in seen["info"]
            answers[index].append(strip_ids(seen))
            answers[index].append(strip_ids(client.step(episode_id, "bet", player=1)))
            client.delete_episode(episode_id)
        assert answers[0] == answers[1], f"seed {seed}: seat 1 learned something about seat 0's card"


def strip_ids(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "episode_id"}


def test_the_trainer_view_is_asked_for_explicitly(client):
    episode = client.create_episode("games/kuhn-poker-v1", seed=1, view="all")
    assert episode["info"]["view"] == "all"
    assert len(episode["info"]["scores"]) == 2 and "card_id" in episode
    client.delete_episode(episode["episode_id"])


def test_a_seat_token_reads_and_plays_its_own_seat_only(client):
    episode = client.create_episode("games/kuhn-poker-v1")
    episode_id, seats = episode["episode_id"], episode["tokens"]["seats"]
    assert isinstance(episode["seed"], int)
    other = verigym.Client(client.url)
    assert other.get_episode(episode_id, token=seats[1])["info"]["view"] == 1
    assert "card_id" not in other.get_episode(episode_id, token=seats[1])
    with pytest.raises(Forbidden):
        other.get_episode(episode_id, player=0, token=seats[1])
    with pytest.raises(Forbidden):
        other.delete_episode(episode_id, token=seats[0])
    with pytest.raises(NotFound):
        other.get_episode(episode_id)
    assert other.step(episode_id, "check", token=seats[0])["player"] == 0
    client.delete_episode(episode_id)


def test_typed_errors(client):
    with pytest.raises(NotFound, match="sudoku"):
        client.create_episode("logic/sudoku-v9")
    with pytest.raises(BadRequest):
        client.create_episode()
    with pytest.raises(BadRequest, match="player"):
        client.request("GET", "/v1/episodes/x?player=z")
    with pytest.raises(Unreachable):
        verigym.Client("http://127.0.0.1:9", retries=0, timeout=5).health()


def test_limits_answer_typed_errors():
    with serving("--max-episodes", "1", "--max-body", "2000") as url:
        client = verigym.Client(url)
        first = client.create_episode("games/tictactoe-v1")
        with pytest.raises(TooManyEpisodes, match="max-episodes"):
            client.create_episode("games/tictactoe-v1")
        client.delete_episode(first["episode_id"])
        client.create_episode("games/tictactoe-v1")
        with pytest.raises(PayloadTooLarge, match="max-body"):
            client.score([{"card": {"x": "y" * 5000}, "answer": "1"}])


class _BusyTwice(http.server.BaseHTTPRequestHandler):
    """Answers 503 (Retry-After: 0) to the first two requests, then 200."""

    calls = 0

    def do_GET(self):  # noqa: N802 (http.server's naming)
        type(self).calls += 1
        busy = type(self).calls <= 2
        body = json.dumps({"error": "busy: retry"} if busy else {"status": "ok"}).encode()
        self.send_response(503 if busy else 200)
        if busy:
            self.send_header("Retry-After", "0")
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_busy_answers_are_retried_after_retry_after():
    stub = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _BusyTwice)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{stub.server_address[1]}"
        assert verigym.Client(url, retries=2).health() == {"status": "ok"}
        assert _BusyTwice.calls == 3
        _BusyTwice.calls = 0
        with pytest.raises(Busy) as raised:
            verigym.Client(url, retries=1).health()
        assert raised.value.status == 503 and _BusyTwice.calls == 2
    finally:
        stub.shutdown()
