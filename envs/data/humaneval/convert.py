#!/usr/bin/env python3
"""Turns HumanEval's `check(candidate)` asserts into argument lists for verigym's sandbox.

    python3 envs/data/humaneval/convert.py   # writes envs/data/humaneval/cases.jsonl

Only reads the dataset's text with `ast` (nothing is executed). Recognised assert shapes:
    assert candidate(ARGS) == EXPECTED        (also with the sides swapped)
    assert candidate(ARGS) is True / False / None
    assert candidate(ARGS)                    -> expected True
    assert not candidate(ARGS)                -> expected False
    assert abs(candidate(ARGS) - EXPECTED) < TOL   (float case; max TOL kept per task)
where ARGS and EXPECTED are literals or constant arithmetic on them. Any other statement in `check`
(loops, helpers, non-literal arguments) is counted in `skipped`; a task is `complete` only
when nothing was skipped. Values use the sandbox's tagged encoding: tuples become
{"$tuple": [...]}, ints beyond +-2**63 {"$int": "..."}, non-finite floats {"$float": ...};
dicts in arguments become {"$dict": [[k, v], ...]} (keeps insertion order, which JSON
objects lose on the host), expected dicts with non-str keys too.
Expected values are taken from the test text; the sandbox test suite checks that every
canonical solution passes its converted cases.
"""

import ast
import gzip
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


class Unsupported(Exception):
    pass


def encode(v, arg=False):
    """Tagged encoding; `arg` dicts keep their order as {"$dict": pairs}."""
    t = type(v)
    if v is None or t in (bool, str):
        return v
    if t is int:
        return v if -(1 << 63) <= v < (1 << 63) else {"$int": str(v)}
    if t is float:
        if math.isnan(v):
            return {"$float": "nan"}
        if math.isinf(v):
            return {"$float": "inf" if v > 0 else "-inf"}
        return v
    if t is list:
        return [encode(x, arg) for x in v]
    if t is tuple:
        return {"$tuple": [encode(x, arg) for x in v]}
    if t is dict:
        if arg or not all(type(k) is str for k in v):
            return {"$dict": [[encode(k, arg), encode(x, arg)] for k, x in v.items()]}
        if len(v) == 1 and next(iter(v)) in ("$tuple", "$int", "$float", "$dict"):
            raise Unsupported("reserved key")
        return {k: encode(x) for k, x in v.items()}
    raise Unsupported(t.__name__)


_BINOPS = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
}


def literal(node):
    """A literal, or constant arithmetic on literals (`3 + 5`, `'ab' * 3`, `2.0 / 3.0`)."""
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        a, b = literal(node.left), literal(node.right)
        if isinstance(a, (str, list, tuple)) or isinstance(b, (str, list, tuple)):
            n = b if isinstance(b, int) else a if isinstance(a, int) else 0
            if isinstance(node.op, ast.Mult) and n > 10_000:
                raise Unsupported("huge sequence literal")
        try:
            return _BINOPS[type(node.op)](a, b)
        except Exception as e:
            raise Unsupported("bad constant expression") from e
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        a, b = literal(node.left), literal(node.right)
        if type(b) is not int or abs(b) > 64:
            raise Unsupported("large power")
        return a ** b
    if isinstance(node, (ast.Tuple, ast.List)):
        items = [literal(e) for e in node.elts]
        return tuple(items) if isinstance(node, ast.Tuple) else items
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = literal(node.operand)
        return -v if isinstance(node.op, ast.USub) else +v
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError) as e:
        raise Unsupported("not a literal") from e


def candidate_args(node):
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "candidate" and not node.keywords):
        raise Unsupported("not a candidate call")
    return [encode(literal(a), arg=True) for a in node.args]


def convert_assert(test):
    """(args, expected, tol) for one assert expression, or raises Unsupported."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if isinstance(op, (ast.Eq, ast.Is)):
            if isinstance(right, ast.Call) and not isinstance(left, ast.Call):
                left, right = right, left
            expected = literal(right)
            if isinstance(op, ast.Is) and expected not in (True, False, None):
                raise Unsupported("is with a non-singleton")
            return candidate_args(left), encode(expected), 0.0
        if isinstance(op, (ast.Lt, ast.LtE)) and isinstance(left, ast.Call) \
                and isinstance(left.func, ast.Name) and left.func.id == "abs" \
                and len(left.args) == 1 and isinstance(left.args[0], ast.BinOp) \
                and isinstance(left.args[0].op, ast.Sub):
            diff = left.args[0]
            expected = literal(diff.right)
            if type(expected) is int:
                expected = float(expected)
            return candidate_args(diff.left), encode(expected), float(literal(right))
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return candidate_args(test.operand), False, 0.0
    if isinstance(test, ast.Call):
        return candidate_args(test), True, 0.0
    raise Unsupported("assert shape")


def convert(problem):
    module = ast.parse(problem["test"])
    check = next(n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == "check")
    cases, skipped, tol = [], 0, 0.0
    for stmt in check.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # docstring / string
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Name):
            continue  # a bare name (129's stray `print`): evaluates to nothing
        if isinstance(stmt, ast.Assert) and isinstance(stmt.test, ast.Constant) \
                and stmt.test.value is True:
            continue  # `assert True, "This prints if this assert fails"`: a no-op
        if not isinstance(stmt, ast.Assert):
            skipped += 1
            continue
        try:
            args, expected, t = convert_assert(stmt.test)
        except Unsupported:
            skipped += 1
            continue
        cases.append({"args": args, "expected": expected})
        tol = max(tol, t)
    return {
        "task_id": problem["task_id"],
        "entry_point": problem["entry_point"],
        "prompt": problem["prompt"],
        "canonical_solution": problem["canonical_solution"],
        "cases": cases,
        "float_tol": tol,
        "skipped": skipped,
        "complete": skipped == 0 and bool(cases),
    }


def main():
    with gzip.open(os.path.join(HERE, "HumanEval.jsonl.gz"), "rt", encoding="utf-8") as f:
        problems = [json.loads(line) for line in f]
    out_path = os.path.join(HERE, "cases.jsonl")
    complete = 0
    with open(out_path, "w", encoding="utf-8") as out:
        for p in problems:
            row = convert(p)
            complete += row["complete"]
            out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{len(problems)} tasks, {complete} fully converted -> {out_path}")


if __name__ == "__main__":
    main()
