"""verl 0.9.1 routes, through verl's own code: `load_module` /
`get_custom_reward_fn` load our reward by file path and as `pkg://`, the
naive reward manager calls it, `RLHFDataset` reads our parquet rows, and the
agent loop is instantiated from our config file the way verl's worker does
it and run with verl's token builder and tool parser. Only the LLM server
is scripted: it answers with the oracle's or a bad transcript."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from trainer_cases import ENVS, OPPONENT, POKER, needs_trainers, secrets, tool_call, transcripts

import verigym
import verigym.integrations.verl as verl_integration
from verigym.integrations.verl import agent_config_path
from verigym.integrations.episodes import env_tools

needs_trainers()
torch = pytest.importorskip("torch")
pytest.importorskip("verl")
import numpy as np  # noqa: E402
import pandas  # noqa: E402
from omegaconf import OmegaConf  # noqa: E402
from verl import DataProto  # noqa: E402
from verl.experimental.agent_loop.agent_loop import (  # noqa: E402
    DictConfigWrap,
    ToolListWrap,
    _agent_loop_registry,
)
from verl.experimental.reward_loop.reward_manager.naive import NaiveRewardManager  # noqa: E402
from verl.trainer.ppo.reward import get_custom_reward_fn  # noqa: E402
from verl.utils.dataset.rl_dataset import RLHFDataset  # noqa: E402
from verl.utils.import_utils import load_module  # noqa: E402
from verl.workers.rollout.replica import TokenOutput  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from tiny_llm import corpus, tiny_tokenizer  # noqa: E402

FILE_PATH = verl_integration.__file__


@pytest.fixture(scope="module")
def tokenizer():
    return tiny_tokenizer(corpus(ENVS + [POKER], n=4))


@pytest.mark.parametrize("path", [FILE_PATH, "pkg://verigym.integrations.verl", "pkg://verigym/integrations/verl"])
def test_verl_loads_compute_score_by_path_and_package(path):
    module = load_module(path)
    assert module.compute_score.__module__ in (module.__name__, "verigym.integrations.verl")
    config = OmegaConf.create(
        {"reward": {"custom_reward_function": {"path": path, "name": "compute_score", "reward_kwargs": {}}}}
    )
    fn = get_custom_reward_fn(config)
    row = verl_integration.rows("math/arithmetic-v1", 1, seed=1)[0]
    truth = row["reward_model"]["ground_truth"]
    answer = json.loads(truth)["reference"]
    result = fn(data_source=row["data_source"], solution_str=f"so \\boxed{{{answer}}}", ground_truth=truth,
                extra_info={"num_turns": 2, "rollout_reward_scores": {}}, reward_router_address=None)
    assert result == {"score": 1.0, "passed": 1.0, "no_verdict": 0.0}


def run_naive_manager(tokenizer, row, response: str):
    """verl's naive reward manager on one decoded response."""
    fn = get_custom_reward_fn(
        OmegaConf.create({"reward": {"custom_reward_function": {
            "path": FILE_PATH, "name": "compute_score", "reward_kwargs": {"opponent": OPPONENT}}}})
    )
    ids = tokenizer.encode(response, add_special_tokens=False) or [tokenizer.pad_token_id]
    data = DataProto.from_dict(
        tensors={"responses": torch.tensor([ids]), "attention_mask": torch.ones(1, len(ids), dtype=torch.long)},
        non_tensors={
            "data_source": np.array([row["data_source"]], dtype=object),
            "reward_model": np.array([row["reward_model"]], dtype=object),
            "extra_info": np.array([dict(row["extra_info"])], dtype=object),
        },
    )

    async def run():
        manager = NaiveRewardManager(config=None, tokenizer=tokenizer, compute_score=fn)
        return await manager.run_single(data)

    return asyncio.run(run())


def test_naive_reward_manager_scores_single_turn_answers(tokenizer):
    rows = verl_integration.rows("math/arithmetic-v1", 3, seed=2)
    for index in (0, 1):
        for case in transcripts(rows[index]["reward_model"]["ground_truth"], rows[2]["reward_model"]["ground_truth"]):
            text = f"<think>Let me add carefully.</think>\nThe answer is {case.actions[-1]}"
            out = run_naive_manager(tokenizer, rows[index], text)
            assert out["reward_score"] == (1.0 if case.must_pass else 0.0), case.name
            assert out["reward_extra_info"]["passed"] == out["reward_score"]


class ScriptedServer:
    """The LLM server: turn k answers with action k of the script (as a
    Hermes tool call for tool envs), then a closing message. Records every
    prompt it is sent, decoded: exactly what the model sees."""

    def __init__(self, tokenizer, actions, as_tool_call):
        self.tokenizer, self.actions, self.as_tool_call = tokenizer, actions, as_tool_call
        self.turn = 0
        self.seen: list[str] = []

    async def generate(self, request_id, *, prompt_ids, sampling_params, **kwargs):
        self.seen.append(self.tokenizer.decode(prompt_ids))
        if self.turn < len(self.actions):
            action = self.actions[self.turn]
            if self.as_tool_call:
                try:
                    name, arguments = tool_call(action)
                    action = f'<tool_call>\n{json.dumps({"name": name, "arguments": arguments})}\n</tool_call>'
                except (ValueError, KeyError):
                    pass  # not a call: the model writes it as text
        else:
            action = "Done."
        self.turn += 1
        ids = self.tokenizer.encode(action + "<|im_end|>", add_special_tokens=False)
        return TokenOutput(token_ids=ids, log_probs=None)


def verl_config():
    return OmegaConf.create(
        {
            "actor_rollout_ref": {
                "rollout": {
                    "prompt_length": 8192,
                    "response_length": 16384,
                    "multi_turn": {"max_assistant_turns": 60, "max_user_turns": 60, "format": "hermes"},
                }
            },
            "data": {"prompt_key": "prompt", "max_prompt_length": 8192, "filter_overlong_prompts": False,
                     "return_raw_chat": True},
        }
    )


def agent_loop(tokenizer, server):
    """Our loop, made as verl's worker makes it: the config file registers
    it, hydra instantiates it with the worker's arguments."""
    import hydra

    for entry in OmegaConf.load(agent_config_path()):
        entry.opponent = OPPONENT  # the opponent the test transcripts were played against
        _agent_loop_registry[entry.name] = entry
    config = verl_config()
    return hydra.utils.instantiate(
        config=_agent_loop_registry["verigym"],
        trainer_config=DictConfigWrap(config=config),
        server_manager=server,
        tokenizer=tokenizer,
        processor=None,
        hf_model_type="qwen2",
        dataset_cls=RLHFDataset,
        data_config=DictConfigWrap(config.data),
        tools=ToolListWrap([]),
    )


def dataset_rows(tokenizer, tmp_path, env_id, n, seed):
    """Our rows through parquet and verl's RLHFDataset, as the trainer reads them."""
    rows = verl_integration.rows(env_id, n, seed=seed, opponent=OPPONENT)
    path = tmp_path / f"{env_id.replace('/', '_')}.parquet"
    pandas.DataFrame(rows).to_parquet(path)
    dataset = RLHFDataset(data_files=[str(path)], tokenizer=tokenizer, config=verl_config().data)
    items = [dataset[i] for i in range(len(dataset))]
    for item, row in zip(items, rows):
        assert item["agent_name"] == "verigym"
        assert list(item["raw_prompt"]) == row["prompt"]
    return items


def run_loop(tokenizer, item, actions, env_id):
    server = ScriptedServer(tokenizer, actions, as_tool_call=env_tools(env_id) is not None)
    kwargs = {k: v for k, v in item.items() if k not in ("agent_name", "dummy_tensor")}

    async def run():
        # Made inside the running event loop, as verl's worker does.
        loop = agent_loop(tokenizer, server)
        return await loop.run({"temperature": 1.0}, **kwargs)

    return asyncio.run(run()), server


@pytest.mark.parametrize("env_id", ENVS)
def test_agent_loop_scores_the_oracle_1_and_bad_transcripts_0(tokenizer, tmp_path, env_id):
    items = dataset_rows(tokenizer, tmp_path, env_id, 3, seed=3)
    for index in (0, 1):
        label = items[index]["reward_model"]["ground_truth"]
        for case in transcripts(label, items[2]["reward_model"]["ground_truth"]):
            output, server = run_loop(tokenizer, items[index], case.actions, env_id)
            assert (output.reward_score == 1.0) == case.must_pass, (env_id, index, case.name, output.reward_score)
            # Model tokens are trained on, env tokens are not.
            assert len(output.response_mask) == len(output.response_ids)
            generated = sum(output.response_mask)
            env_tokens = len(output.response_mask) - generated
            assert generated > 0
            if len(case.actions) > 1 and case.must_pass:
                assert env_tokens > 0, "observations are in the sequence, masked out"
            decoded = tokenizer.decode([t for t, m in zip(output.response_ids, output.response_mask) if m])
            assert "<|im_start|>user" not in decoded and "<|im_start|>tool" not in decoded
            assert output.extra_fields["reward_extra_info"]["verigym_passed"] == float(case.must_pass)
            for text in server.seen:
                for secret in secrets(label):
                    assert secret not in text, (case.name, secret)


def test_kuhn_poker_agent_loop_shows_only_the_seats_own_view(tokenizer, tmp_path):
    items = dataset_rows(tokenizer, tmp_path, POKER, 6, seed=4)
    for item in items:
        label = item["reward_model"]["ground_truth"]
        card = json.loads(label)
        for action in ("check", "bet", "call", "fold"):
            output, server = run_loop(tokenizer, item, [action] * 4, POKER)
            for text in server.seen:
                for secret in secrets(label):
                    assert secret not in text, secret
                assert "score" not in text.lower() or "scores" not in card


def test_bad_rows_get_clear_errors(tokenizer, tmp_path):
    items = dataset_rows(tokenizer, tmp_path, "logic/guess-number-v2", 1, seed=5)
    item = dict(items[0])
    item["data_source"] = "tools/calendar-v2"
    with pytest.raises(verigym.EnvError, match="is for `logic/guess-number-v2`"):
        run_loop(tokenizer, item, ["50"], "logic/guess-number-v2")
    item = dict(items[0])
    item["reward_model"] = {"ground_truth": "{broken"}
    with pytest.raises(verigym.EnvError, match="not JSON"):
        run_loop(tokenizer, item, ["50"], "logic/guess-number-v2")
    with pytest.raises(verigym.EnvError, match="does not match"):
        verl_integration.compute_score("tools/calendar-v2", "1", verl_integration.rows("math/arithmetic-v1", 1)[0]["reward_model"]["ground_truth"])
