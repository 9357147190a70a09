#!/usr/bin/python3
"""Per-task speed figures of a bench run against the suite's speed acceptance (docs/suite.md).

Usage: scripts/suite_speed.py RESULTS.jsonl [ARCH.json]. Reads the rows `tilecraft bench` wrote and prints, per
level, per category and overall: tasks, the share of tasks whose geometric-mean speedup over eager is at least 1
(fast_1 of docs/bench.md §6 counts "exceeds"; a tie at 1.00x is rare), the median over tasks of each task's mean
limit score, and the same median for an ideal kernel, one that finishes at the launch floor plus the case's
hardware limit (its device time is T_HW, every unit at peak with perfect overlap, which no kernel beats). That
ceiling shows how far a median limit score can go on these cases at all. Then the tasks below eager.

The limit score is CANN Bench's (T_base - T_hw) / ((T_cand - T_hw) + (T_base - T_hw)), as harness/metrics.cpp
computes it; the launch floor comes from the arch file (launch.kernel_device_floor), never from here.
"""
import collections
import json
import math
import pathlib
import statistics
import sys


def limit_score(base: float, cand: float, hw: float) -> float:
    return (base - hw) / ((cand - hw) + (base - hw))


def main(results: pathlib.Path, arch: pathlib.Path) -> None:
    floor_us = json.loads(arch.read_text())["numbers"]["launch"]["kernel_device_floor"]["value"]
    limit_floor_us = json.loads(arch.read_text())["numbers"]["limit"]["floor"]["value"]
    cases = collections.defaultdict(list)
    meta = {}
    for n, line in enumerate(results.read_text().splitlines(), 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            print(f"{results}:{n}: not a JSON row, skipped", file=sys.stderr)
            continue
        if not row.get("correct"):
            continue
        meta[row["task"]] = (row["level"], row["category"])
        cases[row["task"]].append(row)

    per_task = {}
    for task, rows in cases.items():
        speedup = math.exp(statistics.mean(math.log(r["eager_us"] / r["sim_us"]) for r in rows))
        score = statistics.mean(limit_score(r["eager_us"], r["sim_us"], r["limit_us"]) for r in rows)
        # The ideal kernel's device time is the limit itself; a limit at its floor is the floor, not work.
        ideal = statistics.mean(
            limit_score(r["eager_us"], floor_us + (r["limit_us"] if r["limit_us"] > limit_floor_us else 0.0),
                        r["limit_us"]) for r in rows)
        per_task[task] = (speedup, score, ideal)

    def line(scope: str, tasks: list) -> str:
        fast = sum(per_task[t][0] >= 1.0 for t in tasks) / len(tasks)
        median = statistics.median(per_task[t][1] for t in tasks)
        ceiling = statistics.median(per_task[t][2] for t in tasks)
        return f"| {scope} | {len(tasks)} | {100 * fast:.1f}% | {median:.3f} | {ceiling:.3f} |"

    print("| scope | tasks | speedup >= 1 | median limit score | ideal kernel's median |")
    print("|---|---|---|---|---|")
    print(line("all", sorted(per_task)))
    for level in sorted({m[0] for m in meta.values()}):
        print(line(f"level {level}", sorted(t for t in per_task if meta[t][0] == level)))
    for category in sorted({m[1] for m in meta.values()}):
        print(line(category, sorted(t for t in per_task if meta[t][1] == category)))
    print()
    slow = sorted((per_task[t][0], t) for t in per_task if per_task[t][0] < 1.0)
    print(f"below eager ({len(slow)}): " + ", ".join(f"{t} {s:.2f}x" for s, t in slow))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: scripts/suite_speed.py RESULTS.jsonl [ARCH.json]")
    root = pathlib.Path(__file__).resolve().parent.parent
    main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else root / "configs/arch/910b2.json")
