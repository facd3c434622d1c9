"""Batch generation and scoring, and the math verifier: right answers pass;
wrong, empty, constant, echoed, padded and hedged ones do not."""

from __future__ import annotations

import json
import threading
import time

import pytest

import verigym


def oracle_answers(cards):
    """The reference solver's answer to each single-turn card."""
    answers = []
    env = None
    for card in cards:
        if env is None or env.card is None or env.card["config_hash"] != card["config_hash"]:
            env = verigym.make(card["env_id"], card["config"])
        env.reset(card=card)
        answers.append(env.oracle_action())
    return answers


@pytest.fixture(scope="module")
def arithmetic():
    cards = verigym.generate("math/arithmetic-v1", 200, seed=11)
    return cards, oracle_answers(cards)


def unboxed(answer):
    """The value inside an oracle answer's `\\boxed{...}`."""
    return answer[len("\\boxed{") : -1] if answer.startswith("\\boxed{") else answer


def rewards(cards, answers, **kw):
    return [s["reward"] for s in verigym.score(cards, answers, **kw)]


def test_generate_is_deterministic_and_matches_seeds():
    a = verigym.generate("logic/sudoku-v1@easy", 5, seed=3)
    b = verigym.generate("logic/sudoku-v1@easy", 5, seed=3, threads=1)
    assert a == b
    assert len({c["id"] for c in a}) == 5
    assert verigym.generate("logic/sudoku-v1@easy", 5, seed=4) != a
    assert {c["env_id"] for c in a} == {"logic/sudoku-v1"}
    assert verigym.generate("math/arithmetic-v1", 0) == []


def test_generate_config_and_chat_rows():
    big = verigym.generate("logic/guess-number-v2", 3, seed=1, config={"high": 5000})
    assert all(c["config"]["high"] == 5000 for c in big)
    rows = verigym.generate("math/arithmetic-v1", 2, seed=1, format="chat")
    assert [m["role"] for m in rows[0]["messages"]] == ["system", "user"]
    assert rows[0]["messages"][1]["content"] == rows[0]["card"]["prompt"]
    with pytest.raises(ValueError, match="format"):
        verigym.generate("math/arithmetic-v1", 2, format="xml")


def test_right_answers_pass(arithmetic):
    cards, answers = arithmetic
    scored = verigym.score(cards, answers)
    assert [s["id"] for s in scored] == [c["id"] for c in cards]
    assert all(s["passed"] and s["reward"] == 1.0 for s in scored)
    assert all(isinstance(s["breakdown"], dict) for s in scored)


def test_wrong_empty_constant_echoed_padded_hedged_fail(arithmetic):
    cards, answers = arithmetic
    pad = " ".join(str(i) for i in range(50))
    cases = {
        "wrong": [f"\\boxed{{{unboxed(a)}1}}" for a in answers],
        "empty": [""] * len(cards),
        "none": [None] * len(cards),
        "constant": ["0"] * len(cards),
        "echoed": [c["prompt"] for c in cards],
        "hedged": [f"{a} or \\boxed{{{unboxed(a)}1}}" for a in answers],
        # The value sprayed among fifty other candidates, with no final box to
        # commit to one. (A single boxed answer amid reasoning text is fine.)
        "padded": [f"{pad} {unboxed(a)}" for a in answers],
        "padded after": [f"{unboxed(a)} {pad}" for a in answers],
    }
    for name, bad in cases.items():
        scored = verigym.score(cards, bad)
        passed = sum(s["passed"] for s in scored)
        # A constant is right by chance on a few tasks; never on most.
        limit = len(cards) // 20 if name == "constant" else 0
        assert passed <= limit, f"{name}: {passed} of {len(cards)} passed"


def test_cards_as_json_text_and_chat_rows(arithmetic):
    cards, answers = arithmetic
    as_text = [json.dumps(c) for c in cards[:20]]
    assert rewards(as_text, answers[:20]) == [1.0] * 20
    rows = verigym.generate("math/arithmetic-v1", 200, seed=11, format="chat")
    assert rewards(rows[:20], answers[:20]) == [1.0] * 20


def test_multi_turn_answers_are_action_lists():
    env = verigym.make("logic/guess-number-v2")
    cards = verigym.generate("logic/guess-number-v2", 5, seed=2)
    plans = []
    for card in cards:
        env.reset(card=card)
        actions, over = [], False
        while not over:
            actions.append(env.oracle_action())
            *_, terminated, truncated, _ = env.step(actions[-1])
            over = terminated or truncated
        plans.append(actions)
    assert all(s["passed"] for s in verigym.score(cards, plans))
    partial = [(c, p[:1]) for c, p in zip(cards, plans) if len(p) > 1]
    assert partial, "some task needs more than one guess"
    assert not any(s["passed"] for s in verigym.score([c for c, _ in partial], [p for _, p in partial]))


def test_mixed_envs_in_one_batch_keep_order(arithmetic):
    cards, answers = arithmetic
    sudoku = verigym.generate("logic/sudoku-v1@easy", 3, seed=1)
    mixed = [cards[0], sudoku[0], cards[1], sudoku[1]]
    mixed_answers = [answers[0], "no idea", "wrong", oracle_answers([sudoku[1]])[0]]
    assert [s["passed"] for s in verigym.score(mixed, mixed_answers)] == [True, False, False, True]


def test_threads_do_not_change_results(arithmetic):
    cards, answers = arithmetic
    mixed = [a if i % 3 else "7" for i, a in enumerate(answers)]
    assert verigym.score(cards, mixed, threads=1) == verigym.score(cards, mixed)
    with pytest.raises(ValueError, match="at least 1"):
        verigym.score(cards, mixed, threads=0)


def test_shaping_is_applied_and_never_passes_a_wrong_answer(arithmetic):
    cards, answers = arithmetic
    shaping = {"format_boxed": 0.5}
    boxed_right = [f"\\boxed{{{unboxed(a)}}}" for a in answers[:10]]
    boxed_wrong = ["\\boxed{zzz}"] * 10
    right = verigym.score(cards[:10], boxed_right, shaping=shaping)
    wrong = verigym.score(cards[:10], boxed_wrong, shaping=shaping)
    assert all(s["reward"] == pytest.approx(1.5) for s in right)
    assert all(not s["passed"] and s["reward"] == pytest.approx(0.5) for s in wrong)
    with pytest.raises(verigym.EnvError, match="bad shaping"):
        verigym.score(cards[:1], ["1"], shaping={"no_such_piece": 1})


def test_check_math():
    golds = ["1/2", "3", "x^2-1", "\\frac{\\sqrt{2}}{2}", "10"]
    preds = ["\\boxed{0.5}", "3 or 4", "\\boxed{(x-1)(x+1)}", "\\boxed{\\frac{1}{\\sqrt{2}}}", ""]
    assert verigym.check_math(golds, preds) == [True, False, True, True, False]
    details = verigym.check_math(golds, preds, details=True)
    assert details[0]["equivalent"] and details[0]["reason"]
    assert details[4]["prediction_parsed"] is None
    assert verigym.check_math(["2"], ["\\boxed{2}"], config={"require_boxed": True}) == [True]
    assert verigym.check_math(["2"], ["2"], config={"require_boxed": True}) == [False]
    with pytest.raises(ValueError, match="one prediction per gold"):
        verigym.check_math(["1"], [])


def test_batch_calls_release_the_gil():
    golds = [f"{i}/7" for i in range(200_000)]
    preds = [f"\\boxed{{{i}/7}}" for i in range(200_000)]
    ticks = 0
    done = threading.Event()

    def run():
        verigym.check_math(golds, preds, threads=1)
        done.set()

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(0.05)  # let the call start
    while not done.is_set():
        ticks += 1
    worker.join()
    # Holding the GIL for the whole call would leave this thread a handful
    # of switch intervals at most.
    assert ticks > 10_000, f"the main thread ran only {ticks} loop turns during check_math"


NO_TOOLCHAIN_SCRIPT = r"""
import json, sys
import verigym
from verigym.integrations import openrlhf, trl, verl

cards = verigym.generate("code/functions-c-v2", 2, seed=5)
answers = [f"I will write it in C.\n```c\n{card['reference']}```" for card in cards]
answer = answers[0]
scored = verigym.score(cards, answers)
labels = [json.dumps(card) for card in cards]
trl_rewards = trl.reward_function()(prompts=None, completions=answers, card=labels)
verl_result = verl.compute_score("code/functions-c-v2", answer, labels[0])
try:
    verl.compute_score("code/functions-c-v2", answer, labels[0], on_no_verdict="raise")
    verl_raised = False
except verigym.EnvError as error:
    verl_raised = "no verdict" in str(error)
rlhf = openrlhf.reward_func([answer], [""], labels[:1])
print(json.dumps({
    "scored": scored,
    "trl": trl_rewards,
    "verl": verl_result,
    "verl_raised": verl_raised,
    "openrlhf": {"rewards": [float(r) for r in rlhf["rewards"]],
                 "no_verdict": [float(r) for r in rlhf["extra_logs"]["verigym_no_verdict"]]},
}))
"""


def test_an_answer_the_sandbox_cannot_judge_has_no_reward(tmp_path):
    """With the C toolchain missing, C answers get reward None and the reason,
    in `score` and in every trainer hook (TRL: None; verl and OpenRLHF, which
    take numbers only: 0 flagged as no verdict), never a silent zero."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, VERIGYM_CLANG=str(tmp_path / "no-such-clang"))
    out = subprocess.run(
        [sys.executable, "-c", NO_TOOLCHAIN_SCRIPT], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    for scored in result["scored"]:
        assert scored["reward"] is None, scored
        assert scored["passed"] is False
        assert "C toolchain missing" in scored["no_verdict"], scored
    assert result["trl"] == [None, None]
    assert result["verl"] == {"score": 0.0, "passed": 0.0, "no_verdict": 1.0}
    assert result["verl_raised"] is True
    assert result["openrlhf"] == {"rewards": [0.0], "no_verdict": [1.0]}


def test_a_judged_answer_has_a_reward_and_no_reason(arithmetic):
    cards, answers = arithmetic
    scored = verigym.score(cards[:3], answers[:3])
    assert [s["reward"] for s in scored] == [1.0, 1.0, 1.0]
    assert all(s["no_verdict"] is None for s in scored)
