#!/usr/bin/env python3
"""Judges the bench problems with LiveCodeBench's own runner (PyPI `nvidia-livecodebench`
26.3, `livecodebench.evaluation.compute_code_generation_metrics.evaluate_generations`: a
process pool over problems, and per solution `check_correctness`, which starts a
`multiprocessing.Process` plus a `Manager` and runs `testing_util.run_test` on every
test, unsandboxed, with `signal.alarm` time limits).

Prints one JSON line: solutions, passed, wall_s, cpu_s (this process and every child
process, collected after the pool shut down), workers.

    python livecodebench_stdio_peer.py PROBLEMS.json [--workers N] [--passes P]
"""

import argparse
import json
import resource
import time


def cpu_seconds():
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("problems")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--passes", type=int, default=1)
    args = ap.parse_args()
    import os
    import sys

    from livecodebench.evaluation.compute_code_generation_metrics import evaluate_generations

    problems = json.load(open(args.problems))
    samples = [
        {
            "input_output": json.dumps(
                {
                    "inputs": [t["input"] for t in p["tests"]],
                    "outputs": [t["expected"] for t in p["tests"]],
                }
            )
        }
        for p in problems
    ]
    generations = [p["solutions"] for p in problems]
    solutions = passed = 0
    # tqdm's progress bar goes to stderr; keep stdout for the result line.
    devnull = open(os.devnull, "w")
    cpu0, wall0 = cpu_seconds(), time.perf_counter()
    for _ in range(args.passes):
        saved, sys.stderr = sys.stderr, devnull
        try:
            results, _ = evaluate_generations(
                samples, generations, debug=False, num_process_evaluate=args.workers, timeout=6
            )
        finally:
            sys.stderr = saved
        for per_problem in results.values():
            for per_solution in per_problem:
                solutions += 1
                passed += all(r is True or r == 1 for r in per_solution) and len(per_solution) > 0
    wall, cpu = time.perf_counter() - wall0, cpu_seconds() - cpu0
    print(json.dumps({"judge": "livecodebench", "solutions": solutions, "passed": passed,
                      "wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "workers": args.workers}))


if __name__ == "__main__":
    main()
