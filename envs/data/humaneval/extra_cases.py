#!/usr/bin/env python3
"""Cases for the HumanEval tasks whose `check` convert.py cannot turn (fully) into argument
lists: 32, 33, 37, 38, 50 (loops over random inputs or helper-based checks) get hand-written
arguments; 44, 53 and 151 get the statements convert.py skipped (a `for` loop over inputs,
a loop over random pairs, a list built in code), rewritten as fixed argument lists.

    python3 envs/data/humaneval/extra_cases.py   # writes envs/data/humaneval/extra_cases.jsonl

The arguments below are written by hand (fixed, no randomness); the expected values come
from running each task's *canonical solution* on the host. This is trusted dataset code,
run once offline; candidates only ever run in the WASM sandbox. find_zero's polynomials
are strictly monotonic (one real root), so every correct method finds the same root; its
cases are compared with a float tolerance of 1e-6.

For 44, 53 and 151 the original check states the expected value itself (`str(x)`, `x + y`,
the odd-square sum); `CHECK_EXPECTED` recomputes it that way and the script stops if the
canonical solution disagrees, so these rows are exactly the check's skipped asserts.
53's 100 `random.randint(0, 1000)` pairs are drawn once from a fixed seed (the original
draws new ones per run). `cargo test -p verigym-envs humaneval` then confirms in the
sandbox that every canonical solution passes all of its cases.
"""

import gzip
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

ARGS = {
    "HumanEval/32": [
        [[1, 2]], [[-3, 1]], [[5, 0, 0, 1]], [[-7, 3, 0, 2]], [[2, 1, 0, 4]],
        [[-1, 1, 1, 1]], [[10, 4, 0, 0, 0, 1]], [[-20, 2, 0, 3, 0, 1]],
    ],
    "HumanEval/33": [
        [[1, 2, 3]], [[5, 6, 3, 4, 8, 9, 2]], [[5, 8, 3, 4, 6, 9, 2]], [[9, 1, 1, 8, 2, 2, 7, 3, 3, 0]],
        [[4]], [[3, 2]], [[-1, 0, 0, -5, 7, 7, 2, 9]],
    ],
    "HumanEval/37": [
        [[1, 2, 3]], [[5, 6, 3, 4]], [[5, 3, -5, 2, -3, 3, 9, 0, 123, 1, -10]],
        [[7]], [[2, 1]], [[9, 8, 7, 6, 5, 4, 3, 2]],
    ],
    "HumanEval/38": "cyclic",
    "HumanEval/50": "shift",
    # `for x in range(2, 8): assert candidate(x, x + 1) == str(x)`
    "HumanEval/44": [[x, x + 1] for x in range(2, 8)],
    # `for i in range(100): x, y = random.randint(0, 1000), ...; assert candidate(x, y) == x + y`
    "HumanEval/53": "random_pairs",
    # `lst = list(range(-99, 100, 2)); assert candidate(lst) == odd_sum`
    "HumanEval/151": [[list(range(-99, 100, 2))]],
}

# The expected value as the original check computes it, for the rows rewritten from it.
CHECK_EXPECTED = {
    "HumanEval/44": lambda x, base: str(x),
    "HumanEval/53": lambda x, y: x + y,
    "HumanEval/151": lambda lst: sum([i**2 for i in lst if i % 2 != 0 and i > 0]),
}

WORDS = ["abc", "abcdef", "hello world", "a", "", "xyzzy", "programming", "ab", "zzzzzz", "qwertyuiop"]


def main():
    with gzip.open(os.path.join(HERE, "HumanEval.jsonl.gz"), "rt") as f:
        tasks = {t["task_id"]: t for t in map(json.loads, f)}
    out = []
    for task_id, args in ARGS.items():
        t = tasks[task_id]
        scope = {}
        exec(t["prompt"] + t["canonical_solution"], scope)
        fn = scope[t["entry_point"]]
        if args == "cyclic":
            args = [[scope["encode_cyclic"](w)] for w in WORDS]
        elif args == "shift":
            args = [[scope["encode_shift"](w.replace(" ", ""))] for w in WORDS]
        elif args == "random_pairs":
            rng = random.Random(53)
            args = [[rng.randint(0, 1000), rng.randint(0, 1000)] for _ in range(100)]
        cases = [{"args": a, "expected": fn(*a)} for a in args]
        if task_id in CHECK_EXPECTED:
            for c in cases:
                want = CHECK_EXPECTED[task_id](*c["args"])
                if type(c["expected"]) is not type(want) or c["expected"] != want:
                    raise SystemExit(f"{task_id}{c['args']}: canonical {c['expected']!r} != check {want!r}")
        out.append({"task_id": task_id, "cases": cases,
                    "float_tol": 1e-6 if task_id == "HumanEval/32" else 0.0})
    with open(os.path.join(HERE, "extra_cases.jsonl"), "w") as f:
        for row in out:
            f.write(json.dumps(row, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
