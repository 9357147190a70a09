#!/usr/bin/python3
"""Print the suite table of docs/tasks.md from the task and solution folders.

Usage: scripts/suite_table.py [REPO_ROOT]. Prints the markdown rows (level, task, category, dtypes, cases,
solution files) and then the count sentence with the number of cases and the tasks per category and per level.
harness/tests/suite_test.py checks the docs against the folders; this writes what it checks, so adding a task
is: write the folders, paste these rows into docs/tasks.md.
"""
import collections
import csv
import pathlib
import sys

import yaml

SHORT_DTYPES = {"float16": "f16", "float32": "f32", "bfloat16": "bf16", "int8": "i8", "int16": "i16",
                "int32": "i32", "int64": "i64", "uint8": "u8", "bool": "bool"}


def task_row(task: pathlib.Path, solutions: pathlib.Path) -> tuple:
    op = yaml.safe_load((task / "proto.yaml").read_text())["operator"]
    dtypes = []
    for tensor in op.get("inputs") or []:
        listed = tensor.get("dtype")
        for dtype in listed if isinstance(listed, list) else [listed]:
            if SHORT_DTYPES.get(dtype, dtype) not in dtypes:
                dtypes.append(SHORT_DTYPES.get(dtype, dtype))
    with open(task / "cases.csv", newline="") as f:
        cases = len(list(csv.DictReader(f)))
    files = ", ".join(f"`{p.name}`" for p in sorted((solutions / task.name).glob("*.tile")))
    return (int(task.parent.name.removeprefix("level")), task.name, op["category"], ", ".join(dtypes), cases, files)


def main(root: pathlib.Path) -> None:
    rows = sorted(task_row(p.parent, root / "solutions") for p in root.glob("tasks/level*/*/proto.yaml"))
    print("| level | task | category | dtypes | cases | solution files |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print("| {} | `{}` | {} | {} | {} | {} |".format(*row))
    categories = collections.Counter(row[2] for row in rows)
    levels = collections.Counter(row[0] for row in rows)
    print()
    print(f"{len(rows)} tasks over {len(categories)} of the 14 categories, {sum(row[4] for row in rows)} cases")
    print("per category: " + ", ".join(f"{name} {n}" for name, n in sorted(categories.items())))
    print("per level: " + ", ".join(f"L{level} {n}" for level, n in sorted(levels.items())))


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent))
