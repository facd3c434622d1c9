"""OpenEnv on `verigym serve`, driven by the real openenv-core 0.3.0 client
(python/openenv-requirements.txt, installed by python/setup-openenv.sh):
its `GenericEnvClient` plays a one-player multi-turn env and a game over
the `/ws` session protocol, its runtime validation passes, and bad input
gets protocol-level errors while the server stays up."""

from __future__ import annotations

import asyncio
import json

import pytest
from test_client import serving

openenv_client = pytest.importorskip(
    "openenv.core.generic_client", reason="openenv-core is not installed: run python/setup-openenv.sh"
)
websockets_client = pytest.importorskip("websockets.asyncio.client")
from openenv.cli._validation import validate_running_environment  # noqa: E402

GenericEnvClient = openenv_client.GenericEnvClient
TIMEOUT = 60


@pytest.fixture(scope="module")
def url():
    with serving("--max-body", "65536") as url:
        yield url


def test_the_openenv_client_plays_a_multi_turn_env_to_the_end(url):
    with GenericEnvClient(base_url=url, message_timeout_s=TIMEOUT).sync() as env:
        result = env.reset(env_id="logic/guess-number-v2", seed=4)
        assert result.done is False and result.reward is None
        observation = result.observation
        assert "Guess" in observation["text"] and observation["view"] == 0
        for _ in range(64):
            lo, hi = observation["structured"]["known_bounds"]
            result = env.step({"action": str(lo + (hi - lo) // 2)})
            observation = result.observation
            if result.done:
                break
        assert result.done and result.reward == 1.0
        assert observation["metadata"]["terminated"] is True
        assert observation["metadata"]["score"]["passed"] is True
        state = env.state()
        assert state["done"] is True and state["step_count"] == observation["metadata"]["step_count"]


def test_the_openenv_client_plays_a_game_seat_against_the_builtin_opponent(url):
    """Seat 1 of Kuhn poker against the heuristic: each observation is seat
    1's alone; the other seat's score appears only once the hand is over."""
    with GenericEnvClient(base_url=url, message_timeout_s=TIMEOUT).sync() as env:
        for seed in range(5):
            result = env.reset(env_id="games/kuhn-poker-v1", seed=seed, seat=1, opponent="heuristic")
            steps = 0
            while not result.done:
                observation = result.observation
                assert observation["view"] == 1 and observation["current_player"] == 1
                assert "scores" not in observation["metadata"]
                result = env.step({"action": observation["legal_actions"][0]})
                steps += 1
            metadata = result.observation["metadata"]
            assert len(metadata["scores"]) == 2
            assert metadata["score"]["reward"] == metadata["scores"][1]["reward"]
            assert steps >= 1 and result.observation["legal_actions"] == []


def test_a_tool_env_shows_its_tool_schemas(url):
    with GenericEnvClient(base_url=url, message_timeout_s=TIMEOUT).sync() as env:
        result = env.reset(env_id="tools/calendar-v2", seed=1)
        tools = result.observation["tools"]
        assert tools and all(t["type"] == "function" for t in tools)


def test_the_openenv_client_plays_a_tool_world_with_a_policy(url):
    """tools/bank-v1 (issue #37's tool worlds): the oracle's calls, made
    locally on the same seed and replayed through the OpenEnv client, score
    1 on the server; its closing call alone, with the work skipped, fails."""
    import verigym

    def oracle_calls(seed):
        local = verigym.make("tools/bank-v1")
        local.reset(seed=seed)
        actions = []
        while True:
            action = local.oracle_action()
            assert action is not None
            actions.append(action)
            _, _, terminated, truncated, _ = local.step(action)
            if terminated or truncated:
                assert local.score()["passed"]
                return actions

    # A request the policy allows, so the bank's state must change.
    changes = ("transfer", "place_hold", "release_hold")
    seed, actions = next(
        (seed, actions)
        for seed in range(40)
        for actions in [oracle_calls(seed)]
        if any(name in action for action in actions[:-1] for name in changes)
    )
    with GenericEnvClient(base_url=url, message_timeout_s=TIMEOUT).sync() as env:
        result = env.reset(env_id="tools/bank-v1", seed=seed)
        assert {t["function"]["name"] for t in result.observation["tools"]}
        for action in actions:
            assert not result.done
            result = env.step({"action": action})
        assert result.done and result.reward == 1.0
        result = env.reset(env_id="tools/bank-v1", seed=seed)
        result = env.step({"action": actions[-1]})
        assert result.done and result.reward < 1.0


def test_trainer_sessions_move_every_seat(url):
    with GenericEnvClient(base_url=url, message_timeout_s=TIMEOUT).sync() as env:
        result = env.reset(env_id="games/tictactoe-v1", seed=5, view="all")
        movers = []
        while not result.done:
            observation = result.observation
            movers.append(observation["current_player"])
            result = env.step({"action": observation["legal_actions"][0]})
        assert movers == [0, 1, 0, 1, 0, 1, 0]
        assert result.observation["metadata"]["rewards"] == [1.0, -1.0]


def test_openenv_runtime_validation_passes(url):
    report = validate_running_environment(url, timeout_s=TIMEOUT)
    failed = [c for c in report["criteria"] if not c["passed"]]
    assert report["passed"], failed
    assert report["mode"] == "simulation"


def test_http_reset_and_step_keep_their_session(url):
    import requests

    reset = requests.post(f"{url}/reset", json={"env_id": "logic/guess-number-v2", "seed": 4}, timeout=TIMEOUT)
    assert reset.status_code == 200, reset.text
    episode_id = reset.json()["observation"]["episode_id"]
    step = requests.post(f"{url}/step", json={"action": {"action": "50"}, "episode_id": episode_id}, timeout=TIMEOUT)
    assert step.status_code == 200 and step.json()["observation"]["metadata"]["step_count"] == 1
    state = requests.get(f"{url}/state", params={"episode_id": episode_id}, timeout=TIMEOUT).json()
    assert state["step_count"] == 1
    lost = requests.post(f"{url}/step", json={"action": {"action": "50"}}, timeout=TIMEOUT)
    assert lost.status_code == 400 and "episode_id" in lost.json()["error"]


async def _exchange(url: str, frames: list[str]) -> list[dict]:
    answers = []
    async with websockets_client.connect(url.replace("http", "ws") + "/ws", max_size=None) as socket:
        for frame in frames:
            await socket.send(frame)
            answers.append(json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT)))
    return answers


def test_bad_messages_get_protocol_errors_and_the_session_goes_on(url):
    frames = [
        "{not json",
        json.dumps({"type": "dance"}),
        json.dumps({"type": "step", "data": {"action": "1"}}),
        json.dumps({"type": "reset", "data": {"env_id": "logic/sudoku-v9"}}),
        json.dumps({"type": "reset", "data": {"env_id": "games/kuhn-poker-v1", "seed": "one"}}),
        # Unknown reset fields are ignored, as upstream's ResetRequest does.
        json.dumps({"type": "reset", "data": {"env_id": "logic/guess-number-v2", "seed": 4, "sead": 1}}),
        json.dumps({"type": "step", "data": {"move": "1"}}),
        json.dumps({"type": "step", "data": {"action": "a big number"}}),
    ]
    answers = asyncio.run(_exchange(url, frames))
    codes = [a["data"].get("code") if a["type"] == "error" else a["type"] for a in answers]
    assert codes == [
        "INVALID_JSON",
        "UNKNOWN_TYPE",
        "VALIDATION_ERROR",
        "VALIDATION_ERROR",
        "VALIDATION_ERROR",
        "observation",
        "VALIDATION_ERROR",
        "observation",
    ], answers
    assert "sudoku" in answers[3]["data"]["message"]
    assert "one" in answers[4]["data"]["message"]
    assert answers[7]["data"]["observation"]["metadata"]["invalid_action"]


def test_steps_after_the_end_are_refused(url):
    frames = [json.dumps({"type": "reset", "data": {"env_id": "games/kuhn-poker-v1", "seed": 2, "opponent": "random"}})]
    frames += [json.dumps({"type": "step", "data": {"action": "fold"}})] * 4
    answers = asyncio.run(_exchange(url, frames))
    done_at = next(i for i, a in enumerate(answers) if a["type"] == "observation" and a["data"]["done"])
    later = answers[done_at + 1 :]
    assert later and all(a["type"] == "error" and "over" in a["data"]["message"] for a in later), answers


async def _oversized(url: str) -> int:
    async with websockets_client.connect(url.replace("http", "ws") + "/ws", max_size=None) as socket:
        await socket.send(json.dumps({"type": "step", "data": {"action": "x" * 100_000}}))
        with pytest.raises(Exception):
            await asyncio.wait_for(socket.recv(), TIMEOUT)
        return socket.close_code


def test_an_oversized_frame_closes_with_1009_and_the_server_stays_up(url):
    import requests

    assert asyncio.run(_oversized(url)) == 1009
    assert requests.get(f"{url}/health", timeout=TIMEOUT).json() == {"status": "healthy"}


async def _capacity(url: str) -> tuple[dict, str, bool]:
    ws = url.replace("http", "ws") + "/ws"
    async with websockets_client.connect(ws) as first:
        await first.send(json.dumps({"type": "reset", "data": {"env_id": "games/tictactoe-v1"}}))
        await asyncio.wait_for(first.recv(), TIMEOUT)
        # The upgrade is accepted; the first message is the capacity error.
        async with websockets_client.connect(ws) as second:
            refused = json.loads(await asyncio.wait_for(second.recv(), TIMEOUT))
        # OpenEnv's own client raises its usual error for it.
        client = GenericEnvClient(base_url=url, message_timeout_s=TIMEOUT)
        try:
            await client.reset(env_id="logic/guess-number-v2")
            raised = ""
        except RuntimeError as error:
            raised = str(error)
        finally:
            await client.close()
    # The first session is gone with its connection: room again.
    for _ in range(50):
        async with websockets_client.connect(ws) as again:
            await again.send(json.dumps({"type": "state"}))
            answer = json.loads(await asyncio.wait_for(again.recv(), TIMEOUT))
            if answer["type"] == "state":
                return refused, raised, True
        await asyncio.sleep(0.1)
    return refused, raised, False


def test_a_full_server_answers_openenvs_capacity_error_and_frees_sessions_on_disconnect():
    """As openenv-core 0.3.0's server: `SessionCapacityError` as a
    `CAPACITY_REACHED` error message, not a refused handshake."""
    with serving("--max-episodes", "1") as url:
        refused, raised, admitted_later = asyncio.run(_capacity(url))
        assert refused == {
            "type": "error",
            "data": {
                "message": "Server at capacity: 1/1 sessions active. Cannot accept new connections.",
                "code": "CAPACITY_REACHED",
                "active_sessions": 1,
                "max_sessions": 1,
            },
        }
        assert "Server at capacity" in raised and "(code: CAPACITY_REACHED)" in raised, raised
        assert admitted_later
