"""The verl and TRL reward hooks over generated tasks."""

from __future__ import annotations

import json

import pytest
from test_score import oracle_answers

import verigym
from verigym.adapters import (
    completion_text,
    compute_score,
    compute_score_batch,
    make_trl_reward,
    trl_rows,
    verl_rows,
)


@pytest.fixture(scope="module")
def verl_data():
    rows = verl_rows("math/arithmetic-v1@easy", 20, seed=4)
    cards = [json.loads(r["reward_model"]["ground_truth"]) for r in rows]
    return rows, oracle_answers(cards)


def test_verl_rows_layout(verl_data):
    rows, _ = verl_data
    row = rows[0]
    assert row["data_source"] == "math/arithmetic-v1"
    assert row["ability"] == "math"
    assert row["prompt"][-1]["role"] == "user"
    assert row["reward_model"]["style"] == "rule"
    assert row["extra_info"]["index"] == 0


def test_compute_score_right_and_wrong(verl_data):
    rows, answers = verl_data
    for row, answer in zip(rows, answers):
        truth = row["reward_model"]["ground_truth"]
        right = compute_score(row["data_source"], f"Thinking... the answer is {answer}", truth, row["extra_info"])
        assert right == {"score": 1.0, "passed": 1.0, "no_verdict": 0.0}
        # A hedge names two different final answers (`\\boxed{179}` and `\\boxed{1791}`).
        other = f"{answer[:-1]}1}}" if answer.endswith("}") else f"{answer}1"
        for bad in ["", "I cannot solve this", f"{answer} or {other}", row["prompt"][-1]["content"]]:
            assert compute_score(row["data_source"], bad, truth)["score"] == 0.0, bad
    # The card as a dict works as well as its JSON text.
    card = json.loads(rows[0]["reward_model"]["ground_truth"])
    assert compute_score("math/arithmetic-v1", answers[0], card)["score"] == 1.0


def test_compute_score_checks_the_data_source(verl_data):
    rows, answers = verl_data
    truth = rows[0]["reward_model"]["ground_truth"]
    with pytest.raises(verigym.EnvError, match="does not match"):
        compute_score("logic/sudoku-v1", answers[0], truth)
    # A dataset name that is not a verigym id is not checked.
    assert compute_score("gsm8k", answers[0], truth)["score"] == 1.0
    with pytest.raises(verigym.EnvError, match="not a verigym task card"):
        compute_score("gsm8k", "1", json.dumps({"answer": "1"}))


def test_compute_score_batch(verl_data):
    rows, answers = verl_data
    mixed = [a if i % 2 else "wrong" for i, a in enumerate(answers)]
    out = compute_score_batch(
        [r["data_source"] for r in rows],
        mixed,
        [r["reward_model"]["ground_truth"] for r in rows],
        [r["extra_info"] for r in rows],
    )
    assert [o["score"] for o in out] == [float(i % 2) for i in range(len(rows))]


def test_trl_reward_over_plain_and_chat_completions():
    rows = trl_rows("math/arithmetic-v1", 12, seed=9)
    assert rows[0]["prompt"][0]["role"] == "system" and isinstance(rows[0]["card"], str)
    answers = oracle_answers([json.loads(r["card"]) for r in rows])
    reward = make_trl_reward()
    assert reward.__name__ == "verigym_reward"
    prompts = [r["prompt"] for r in rows]
    cards = [r["card"] for r in rows]
    plain = [f"The answer is {a}" if i % 3 else "no idea" for i, a in enumerate(answers)]
    expected = [0.0 if i % 3 == 0 else 1.0 for i in range(len(rows))]
    assert reward(prompts=prompts, completions=plain, card=cards) == expected
    chat = [[{"role": "assistant", "content": c}] for c in plain]
    assert reward(prompts, chat, card=cards, other_column=[0] * len(rows)) == expected
    with pytest.raises(verigym.EnvError, match="no `card` column"):
        reward(prompts, plain, answer=cards)


def test_completion_text_shapes():
    assert completion_text("x") == "x"
    assert completion_text([{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]) == "a"
    assert completion_text([{"role": "assistant", "content": [{"type": "text", "text": "p"}, {"type": "text", "text": "q"}]}]) == "pq"
    assert completion_text({"role": "assistant", "content": "m"}) == "m"
    assert completion_text([]) == ""
    with pytest.raises(TypeError):
        completion_text(3)


def test_adapters_is_a_deprecated_alias_of_the_integrations():
    import importlib

    import verigym.adapters as adapters
    from verigym.integrations import trl, verl

    with pytest.warns(DeprecationWarning, match="verigym.integrations"):
        importlib.reload(adapters)
    assert adapters.compute_score is verl.compute_score
    assert adapters.trl_rows is trl.rows and adapters.verl_rows is verl.rows
