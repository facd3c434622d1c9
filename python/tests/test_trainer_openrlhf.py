"""OpenRLHF 0.11.2 routes through OpenRLHF's own code: its
`SingleTurnAgentExecutor` loads our reward file (and posts to `verigym
serve`'s `/openrlhf/reward`), its `_load_agent_executor` (read from its
`vllm_engine.py`, which imports vllm at the top) loads our agent file, and
its `MultiTurnAgentExecutor` runs the episodes. Only the vLLM engine is
scripted: it answers with the oracle's or a bad transcript."""

from __future__ import annotations

import ast
import asyncio
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from test_server import call, server  # noqa: F401  (the `verigym serve` fixture)
from trainer_cases import ENVS, OPPONENT, POKER, needs_trainers, secrets, transcripts

import verigym
import verigym.integrations.openrlhf as reward_file
import verigym.integrations.openrlhf_agent as agent_file
from verigym.integrations.openrlhf import rows

needs_trainers()
pytest.importorskip("torch")
openrlhf = pytest.importorskip("openrlhf")
from openrlhf.datasets.prompts_dataset import preprocess_data  # noqa: E402
from openrlhf.utils import agent as openrlhf_agent  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from tiny_llm import corpus, tiny_tokenizer  # noqa: E402


@pytest.fixture(scope="module")
def tokenizer():
    return tiny_tokenizer(corpus(ENVS + [POKER], n=4))


@pytest.fixture(autouse=True)
def opponent(monkeypatch):
    monkeypatch.setenv("VERIGYM_OPPONENT", OPPONENT)


def load_agent_executor(path: str):
    """OpenRLHF's `_load_agent_executor`, taken from its source file (the
    module imports vllm, which has no place here) and run as written."""
    source = Path(openrlhf.__file__).parent / "trainer" / "ray" / "vllm_engine.py"
    tree = ast.parse(source.read_text())
    function = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "_load_agent_executor")
    namespace = {"AgentExecutorBase": openrlhf_agent.AgentExecutorBase}
    exec(compile(ast.Module(body=[function], type_ignores=[]), str(source), "exec"), namespace)
    return namespace["_load_agent_executor"](path)


class ScriptedEngine:
    """The vLLM engine: call k answers with action k of the script."""

    def __init__(self, tokenizer, actions):
        self.tokenizer, self.actions, self.calls = tokenizer, actions, 0

    async def generate(self, token_ids, params, **kwargs):
        text = self.actions[self.calls] if self.calls < len(self.actions) else "Done."
        self.calls += 1
        ids = self.tokenizer.encode(text + "<|im_end|>", add_special_tokens=False)
        output = SimpleNamespace(token_ids=ids, text=text, finish_reason="stop", logprobs=None)
        return SimpleNamespace(outputs=[output])


def prompt_and_label(tokenizer, row):
    """What OpenRLHF's prompts dataset makes of a row."""
    return preprocess_data(row, input_key="prompt", label_key="label", apply_chat_template=tokenizer.apply_chat_template)


def params():
    return SimpleNamespace(max_tokens=None, logprobs=None)


def test_reward_file_through_single_turn_executor(tokenizer):
    executor = openrlhf_agent.SingleTurnAgentExecutor(reward_file.__file__)
    assert executor.reward_func is not None and executor.reward_func.__name__ == "reward_func"
    data = rows("math/arithmetic-v1", 3, seed=1)
    for index in (0, 1):
        prompt, label = prompt_and_label(tokenizer, data[index])
        for case in transcripts(label, data[2]["label"]):
            reply = f"<think>2 and 2...</think> The answer is {case.actions[-1]}"
            engine = ScriptedEngine(tokenizer, [reply])
            out = asyncio.run(executor.execute(prompt, label, params(), 4096, tokenizer, engine))
            assert float(out["reward"]) == (1.0 if case.must_pass else 0.0), case.name
            assert float(out["extra_logs"]["verigym_passed"]) == float(case.must_pass)


def test_remote_reward_route_on_verigym_serve(tokenizer, server):  # noqa: F811
    url = f"{server}/openrlhf/reward"
    executor = openrlhf_agent.SingleTurnAgentExecutor(url)
    data = rows("math/arithmetic-v1", 3, seed=2)
    for index in (0, 1):
        prompt, label = prompt_and_label(tokenizer, data[index])
        for case in transcripts(label, data[2]["label"]):
            engine = ScriptedEngine(tokenizer, [f"So: {case.actions[-1]}"])
            out = asyncio.run(executor.execute(prompt, label, params(), 4096, tokenizer, engine))
            assert out["reward"] == [1.0 if case.must_pass else 0.0], case.name
    # Bad input answers 400 with a reason.
    prompt, label = prompt_and_label(tokenizer, data[0])
    bad = call(url, "POST", {"query": ["x"], "prompts": [prompt], "labels": [label]}, expect=400)
    assert "neither its prompt" in bad["error"]
    bad = call(url, "POST", {"query": [prompt + "1"], "prompts": [prompt], "labels": ["{nope"]}, expect=400)
    assert "JSON" in bad["error"]
    bad = call(url, "POST", {"query": [prompt], "prompts": [], "labels": []}, expect=400)
    assert "one of each" in bad["error"]
    game = rows("games/tictactoe-v1", 1)[0]["label"]
    bad = call(url, "POST", {"query": [prompt + "5"], "prompts": [prompt], "labels": [game]}, expect=400)
    assert "agent file" in bad["error"]


def run_agent(tokenizer, row, actions):
    executor = load_agent_executor(agent_file.__file__)
    prompt, label = prompt_and_label(tokenizer, row)
    engine = ScriptedEngine(tokenizer, actions)
    out = asyncio.run(executor.execute(prompt, label, params(), 32768, tokenizer, engine))
    # What the model was shown: every token outside its own actions.
    tokens = out["observation_tokens"]
    shown, start = [], 0
    for begin, end in out["action_ranges"]:
        shown.append(tokenizer.decode(tokens[start:begin]))
        start = end
    return out, shown


@pytest.mark.parametrize("env_id", [e for e in ENVS if verigym.spec(e)["kind"] != "single_turn"] + ["math/arithmetic-v1"])
def test_agent_file_scores_the_oracle_1_and_bad_transcripts_0(tokenizer, env_id):
    data = rows(env_id, 3, seed=3, opponent=OPPONENT)
    for index in (0, 1):
        for case in transcripts(data[index]["label"], data[2]["label"]):
            out, shown = run_agent(tokenizer, data[index], case.actions)
            assert (out["reward"] == 1.0) == case.must_pass, (env_id, case.name, out["reward"])
            assert out["extra_logs"]["verigym_passed"] == float(case.must_pass)
            for text in shown:
                for secret in secrets(data[index]["label"]):
                    assert secret not in text, (case.name, secret)


def test_kuhn_poker_agent_shows_only_the_seats_own_view(tokenizer):
    for row in rows(POKER, 6, seed=4, opponent=OPPONENT):
        for action in ("check", "bet", "call", "fold"):
            _, shown = run_agent(tokenizer, row, [action] * 4)
            for text in shown:
                for secret in secrets(row["label"]):
                    assert secret not in text, secret


def test_bad_labels_get_clear_errors(tokenizer):
    data = rows("logic/guess-number-v2", 1, seed=5)
    with pytest.raises(verigym.EnvError, match="not JSON"):
        run_agent(tokenizer, {"prompt": data[0]["prompt"], "label": "{x"}, ["50"])
    other = rows("math/arithmetic-v1", 1, seed=6)[0]
    with pytest.raises(verigym.EnvError, match="first view"):
        run_agent(tokenizer, {"prompt": data[0]["prompt"], "label": other["label"]}, ["50"])
    with pytest.raises(verigym.EnvError, match="neither its prompt"):
        reward_file.reward_func(["What?"], ["<|im_start|>user\nQ<|im_end|>"], [data[0]["label"]])
    with pytest.raises(ValueError, match="one of each"):
        reward_file.reward_func(["a", "b"], ["a"], [data[0]["label"]])
    assert json.loads(data[0]["label"])["env_id"] == "logic/guess-number-v2"


def test_the_agent_feeds_back_in_the_tokenizers_own_chat_markup(tokenizer):
    """The feedback template comes from the policy tokenizer's chat
    template: Qwen2.5's here, which is ChatML; the shown feedback turn is a
    user turn in that markup, not a hard-coded default."""
    from verigym.integrations.chat_template import CHATML_FEEDBACK, feedback_template

    assert feedback_template(tokenizer) == CHATML_FEEDBACK
    executor = load_agent_executor(agent_file.__file__)
    assert executor.feedback_for(tokenizer) == CHATML_FEEDBACK
    row = rows("logic/guess-number-v2", 1, seed=5)[0]
    _, shown = run_agent(tokenizer, row, ["50", "25"])
    feedback_turns = [t for t in shown[1:] if t.startswith("\n<|im_start|>user\n")]
    assert feedback_turns and all(t.endswith("<|im_start|>assistant\n") for t in feedback_turns), shown
