"""scripts/suite_speed.py on rows whose figures are worked out by hand here.

Two tasks of one level: `fast` (two cases, eager 4 us against 2.5 us and 3.5 us against 2.5 us: speedup
sqrt(1.6 * 1.4) = 1.50x) and `slow` (one case at 0.5x). Limit scores with a 1 us limit: (4-1)/((2.5-1)+(4-1)) =
0.667 and (3.5-1)/(1.5+2.5) = 0.625, mean 0.646; slow's (3.5-1)/((7-1)+(3.5-1)) = 0.294. The ideal kernel ends at
the 2 us launch floor (the limit is at its own 1 us floor, so it adds nothing): 0.75, 0.714 (mean 0.732) and 0.714.
A wrong row is not counted; a line that is not JSON is reported as FILE:LINE and skipped, the rest still scored.
"""
import json
import pathlib
import subprocess
import sys
import tempfile

root = pathlib.Path(sys.argv[1])


def row(task, category, eager, sim, correct=True):
    return json.dumps({"task": task, "level": 1, "category": category, "correct": correct, "eager_us": eager,
                       "sim_us": sim, "limit_us": 1.0})


with tempfile.TemporaryDirectory() as tmp:
    results = pathlib.Path(tmp) / "results.jsonl"
    results.write_text("\n".join([row("fast", "Math", 4.0, 2.5), row("fast", "Math", 3.5, 2.5), "{torn",
                                  row("slow", "Index", 3.5, 7.0), row("slow", "Index", 3.5, 1.0, correct=False)]))
    run = subprocess.run([sys.executable, str(root / "scripts/suite_speed.py"), str(results)], capture_output=True,
                         text=True)
    expected = [
        "| all | 2 | 50.0% | 0.470 | 0.723 |",
        "| level 1 | 2 | 50.0% | 0.470 | 0.723 |",
        "| Index | 1 | 0.0% | 0.294 | 0.714 |",
        "| Math | 1 | 100.0% | 0.646 | 0.732 |",
        "below eager (1): slow 0.50x",
    ]
    errors = [f"missing line: {line}\n--- output:\n{run.stdout}" for line in expected if line not in run.stdout]
    if run.returncode != 0:
        errors.append(f"exit {run.returncode}: {run.stderr}")
    if f"{results}:3: not a JSON row, skipped" not in run.stderr:
        errors.append(f"the torn line is not reported as {results}:3: {run.stderr!r}")
    usage = subprocess.run([sys.executable, str(root / "scripts/suite_speed.py")], capture_output=True, text=True)
    if usage.returncode == 0 or "usage: scripts/suite_speed.py RESULTS.jsonl" not in usage.stderr:
        errors.append(f"no usage error without arguments: {usage.returncode} {usage.stderr!r}")
    print("\n".join(errors) or "suite_speed: all checks passed")
    sys.exit(1 if errors else 0)
