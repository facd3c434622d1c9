"""TRL 1.16.0 routes, driven by a real `GRPOTrainer` on a tiny local model:
its `environment_factory` probe, its rollout (`reset(**row)`, tool-call
parsing, its tool loop) and its `_calculate_rewards` call our code. Only the
model's generation is scripted (`_generate_single_turn`), so that it writes
the oracle's or a bad transcript."""

from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path

import pytest
from trainer_cases import ENVS, OPPONENT, POKER, needs_trainers, secrets, tool_call, transcripts

import verigym
from verigym.integrations import trl as vg
from verigym.integrations.episodes import ACTION_METHODS, env_tools

needs_trainers()
torch = pytest.importorskip("torch")
trl = pytest.importorskip("trl")
from datasets import Dataset  # noqa: E402
from transformers.utils import get_json_schema  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from tiny_llm import corpus, tiny_model, tiny_tokenizer  # noqa: E402


@pytest.fixture(scope="module")
def tokenizer():
    return tiny_tokenizer(corpus(ENVS + [POKER], n=4))


class ScriptedPolicy:
    """Stands in for the model's generation: turn k of every rollout answers
    with action k of the script, as a Qwen tool call when `tool` says how,
    then a plain closing message. Records every prompt it was shown."""

    def __init__(self, tokenizer, actions, call):
        self.tokenizer, self.actions, self.call = tokenizer, actions, call
        self.seen: list[str] = []

    def reply(self, turn: int) -> str:
        if turn >= len(self.actions):
            return "Done.<|im_end|>"
        action = self.actions[turn]
        if self.call is None:
            return f"{action}<|im_end|>"
        try:
            name, arguments = self.call(action)
        except (ValueError, KeyError):
            return f"{action}<|im_end|>"  # not a call: the model writes it as text
        return f'<tool_call>\n{json.dumps({"name": name, "arguments": arguments})}\n</tool_call><|im_end|>'

    def __call__(self, prompt_ids, images, multimodal_fields, num_generations, has_tool_images=False):
        del images, multimodal_fields, num_generations, has_tool_images
        out = []
        for ids in prompt_ids:
            text = self.tokenizer.decode(ids)
            self.seen.append(text)
            turn = text.count("<|im_start|>assistant") - 1
            out.append(self.tokenizer.encode(self.reply(turn), add_special_tokens=False))
        return out, None


def make_trainer(tokenizer, tmp_path, env_id, rows, with_environment=True):
    from trl import GRPOConfig, GRPOTrainer

    args = GRPOConfig(
        output_dir=str(tmp_path),
        per_device_train_batch_size=2,
        num_generations=2,
        max_completion_length=6000,
        max_tool_calling_iterations=40,
        report_to=[],
        use_cpu=True,
        logging_steps=1,
        save_strategy="no",
    )
    return GRPOTrainer(
        model=tiny_model(tokenizer),
        processing_class=tokenizer,
        reward_funcs=[vg.reward_function(opponent=OPPONENT)],
        args=args,
        train_dataset=Dataset.from_list(rows),
        environment_factory=vg.environment(env_id, opponent=OPPONENT) if with_environment else None,
    )


def call_format(env_id):
    """How the scripted model writes an action in environment mode."""
    if env_tools(env_id):
        return tool_call
    name = ACTION_METHODS[verigym.spec(env_id)["kind"]]
    return lambda action: (name, {"action": action})


@pytest.mark.parametrize("env_id", [e for e in ENVS if verigym.spec(e)["kind"] != "single_turn"] + [POKER])
def test_environment_probe_sees_exactly_the_env_tools(tokenizer, tmp_path, env_id):
    rows = vg.rows(env_id, 2, seed=1, opponent=OPPONENT)
    trainer = make_trainer(tokenizer, tmp_path, env_id, rows)
    tools = trainer._env_tools[None]
    names = sorted(t.__name__ for t in tools)
    schemas = env_tools(env_id)
    if schemas:
        expected = [json.loads(s) for s in schemas]
        assert names == sorted(s["function"]["name"] for s in expected)
        for tool in tools:
            built = get_json_schema(tool)["function"]
            want = next(s["function"] for s in expected if s["function"]["name"] == tool.__name__)
            assert built["description"] == " ".join(want["description"].split())
            assert set(built["parameters"]["properties"]) == set(want["parameters"]["properties"])
            assert sorted(built["parameters"].get("required", [])) == sorted(want["parameters"]["required"])
            for key, prop in want["parameters"]["properties"].items():
                assert built["parameters"]["properties"][key]["type"] == prop["type"], (tool.__name__, key)
                assert built["parameters"]["properties"][key].get("enum") == prop.get("enum")
    else:
        assert names == [ACTION_METHODS[verigym.spec(env_id)["kind"]]]
        built = get_json_schema(tools[0])["function"]
        assert list(built["parameters"]["properties"]) == ["action"]
        assert built["parameters"]["required"] == ["action"]
    # Nothing else is public: no oracle, card, reference or state.
    env_class = type(trainer._environment_pool[None][0])
    public = {n for n, _ in inspect.getmembers(env_class, inspect.isfunction) if not n.startswith("_")}
    assert public == set(names) | {"reset", "get_reward"}
    assert "VerigymEnvironment" not in env_class.__name__ and env_class.__name__.startswith("Verigym")


@pytest.mark.parametrize("env_id", [e for e in ENVS if verigym.spec(e)["kind"] != "single_turn"])
def test_environment_rollouts_score_the_oracle_1_and_bad_transcripts_0(tokenizer, tmp_path, env_id):
    rows = vg.rows(env_id, 3, seed=2, opponent=OPPONENT)
    trainer = make_trainer(tokenizer, tmp_path, env_id, rows)
    for index in (0, 1):
        row = rows[index]
        for case in transcripts(row["card"], rows[2]["card"]):
            policy = ScriptedPolicy(tokenizer, case.actions, call_format(env_id))
            trainer._generate_single_turn = policy
            trainer._generate_and_score_completions([dict(row), dict(row)])
            env_rewards = [e.get_reward() for e in trainer.environments]
            replayed = trainer._metrics["train"]["rewards/verigym_reward/mean"][-1]
            if case.must_pass:
                assert env_rewards == [1.0, 1.0], (env_id, index, case.name)
                assert replayed == pytest.approx(1.0), (env_id, case.name)
            else:
                assert all(r < 1.0 for r in env_rewards), (env_id, case.name, env_rewards)
                assert replayed < 1.0, (env_id, case.name)
            for text in policy.seen:
                for secret in secrets(row["card"]):
                    assert secret not in text, (case.name, secret)


def test_reward_function_through_calculate_rewards(tokenizer, tmp_path):
    """TRL's own `_calculate_rewards` call on single-turn, multi-turn
    (assistant turns replayed, tool calls as actions) and game completions,
    with rows of another reward function mixed in (None)."""
    rows = vg.rows("math/arithmetic-v1", 2, seed=3, opponent=OPPONENT)
    trainer = make_trainer(tokenizer, tmp_path, "math/arithmetic-v1", rows, with_environment=False)
    for env_id in ENVS:
        rows = vg.rows(env_id, 3, seed=4, opponent=OPPONENT)
        for index in (0, 1):
            for case in transcripts(rows[index]["card"], rows[2]["card"]):
                completion = as_completion(env_id, case.actions)
                inputs = [dict(rows[index]), {"prompt": rows[index]["prompt"], "card": None}]
                prompts = [r["prompt"] for r in inputs]
                out = trainer._calculate_rewards(inputs, prompts, [completion, completion], [[1], [1]])
                reward, other = out[0, 0].item(), out[1, 0].item()
                assert other != other, "a row without a card gets None (NaN)"
                if case.must_pass:
                    assert reward == 1.0, (env_id, case.name)
                else:
                    assert reward < 1.0, (env_id, case.name, reward)
    # Logged through TRL's own log_metric / log_extra.
    assert trainer._pending_metrics["verigym/passed"], "log_metric got the pass rate"
    assert 0.0 < sum(trainer._pending_metrics["verigym/passed"]) < len(trainer._pending_metrics["verigym/passed"])
    assert trainer._pending_extra_logs["verigym_passed"][:2] in ([1.0, None], [0.0, None])


def as_completion(env_id, actions):
    """A conversational completion as TRL builds it: tool envs as tool
    calls with tool results between them (and a closing plain message),
    others as one assistant message per turn, with reasoning kept apart."""
    if env_tools(env_id):
        messages = []
        for action in actions:
            try:
                name, arguments = tool_call(action)
            except (ValueError, KeyError):
                messages.append({"role": "assistant", "content": action})
                continue
            messages.append(
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [{"type": "function", "function": {"name": name, "arguments": arguments}}],
                }
            )
            messages.append({"role": "tool", "name": name, "content": "ok"})
        messages.append({"role": "assistant", "content": "All done: the booking is made."})
        return messages
    return [
        {"role": "assistant", "reasoning_content": "Let me think step by step. 12345.", "content": action}
        for action in actions
    ]


def test_bad_input_gets_clear_errors(tmp_path):
    rows = vg.rows("tools/calendar-v2", 2, seed=5)
    env_class = vg.environment("tools/calendar-v2")
    env = env_class()
    with pytest.raises(verigym.EnvError, match="is for `math/arithmetic-v1`"):
        env.reset(**vg.rows("math/arithmetic-v1", 1)[0])
    with pytest.raises(verigym.EnvError, match="not JSON"):
        env.reset(prompt=rows[0]["prompt"], card="{not json")
    with pytest.raises(verigym.EnvError, match="unknown env"):
        vg.environment("tools/no-such-env-v1")
    with pytest.raises(verigym.EnvError, match="its own tools"):
        vg.environment("tools/fncall-v3")
    env.reset(**rows[0])
    tool = next(name for name in ("get_schedule", "room_schedule") if hasattr(env, name))
    with pytest.raises(vg.ToolCallError, match="must be"):
        getattr(env, tool)(**{k: [1, 2] for k in inspect.signature(getattr(env, tool)).parameters})
    with pytest.raises(vg.ToolCallError, match="unexpected keyword|parameters are"):
        getattr(env, tool)(nonsense=1)
    reward = vg.reward_function()
    with pytest.raises(verigym.EnvError, match="no `card` column"):
        reward(prompts=[[]], completions=["1"], answer=["x"])
    bad = json.loads(rows[0]["card"])
    bad["task"] = {"broken": True}
    with pytest.raises(verigym.EnvError):
        reward(prompts=[[]], completions=["1"], card=[json.dumps(bad)])


def test_kuhn_poker_rollouts_show_only_the_seats_own_view(tokenizer, tmp_path):
    rows = vg.rows(POKER, 6, seed=6, opponent=OPPONENT)
    trainer = make_trainer(tokenizer, tmp_path, POKER, rows)
    for row in rows:
        for action in ("check", "bet", "call", "fold"):
            policy = ScriptedPolicy(tokenizer, [action] * 4, call_format(POKER))
            trainer._generate_single_turn = policy
            trainer._generate_and_score_completions([dict(row), dict(row)])
            assert policy.seen
            for text in policy.seen:
                for secret in secrets(row["card"]):
                    assert secret not in text, secret
