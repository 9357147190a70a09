"""The shipped suite (tasks/) against its expert solutions (solutions/) and its table in docs/tasks.md.

Three sources of truth are tied together here: the task folders, the solution folders and the suite table of
the docs. It checks what the loader does not: the folder's level is the proto's difficulty, the category is one
of MultiKernelBench's 14, every task has at least 8 cases with the smoke case first, a golden function named as
the folder, a solution whose first line names its pattern, and one table row per task with the same level and
category; and `tilecraft compile` takes every solution in every instantiation (the whole pipeline, no g++).
Usage: suite_test.py REPO_ROOT TILECRAFT. Exit status 1 lists every mismatch.
"""
import csv
import pathlib
import re
import subprocess
import sys

import yaml

CATEGORIES = {"Activation", "Broadcast", "Convolution", "Fusion", "Index", "Loss", "Math", "Matmul",
              "Normalization", "Optimizer", "Pooling", "Reduce", "Resize", "Architecture"}
MIN_CASES = 8


def check_task(task: pathlib.Path, solutions: pathlib.Path, tilecraft: str, errors: list) -> tuple:
    name = task.name
    level = int(task.parent.name.removeprefix("level"))
    op = yaml.safe_load((task / "proto.yaml").read_text())["operator"]
    category = op.get("category")
    if category not in CATEGORIES:
        errors.append(f"{task}/proto.yaml: category {category!r} is not one of MultiKernelBench's 14")
    if str(op.get("difficulty", "")).upper() != f"L{level}":
        errors.append(f"{task}/proto.yaml: difficulty {op.get('difficulty')!r} but the folder is level{level}")
    with open(task / "cases.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    if len(rows) < MIN_CASES:
        errors.append(f"{task}/cases.csv: {len(rows)} cases; the suite asks for at least {MIN_CASES}")
    if rows and not rows[0].get("note", "").startswith("S-smoke"):
        errors.append(f"{task}/cases.csv: case 1 is what --smoke runs, its note must start with S-smoke")
    if not re.search(rf"^def {name}\(", (task / "golden.py").read_text(), re.M):
        errors.append(f"{task}/golden.py: no function named {name}")
    if not (task / "desc.md").is_file():
        errors.append(f"{task}: no desc.md")
    tiles = sorted((solutions / name).glob("*.tile"))
    if not tiles:
        errors.append(f"{task}: no expert solution solutions/{name}/*.tile")
    for tile in tiles:
        if not tile.read_text().startswith("# Pattern:"):
            errors.append(f"{tile}: the first line must name the pattern (# Pattern: ...)")
        run = subprocess.run([tilecraft, "compile", str(tile)], capture_output=True, text=True)
        if run.returncode != 0:
            errors.append(f"{tile}: tilecraft compile exits {run.returncode}:\n{run.stderr}")
    return (level, name, category)


def docs_table(path: pathlib.Path) -> set:
    """The rows `| level | `task` | category | ... |` of the suite section of docs/tasks.md."""
    text = path.read_text()
    section = text.split("## The starter suite", 1)[1].split("\n## ", 1)[0]
    rows = set()
    for m in re.finditer(r"^\| (\d) \| `(\w+)` \| (\w+) \|", section, re.M):
        rows.add((int(m.group(1)), m.group(2), m.group(3)))
    return rows, section


def main(root: pathlib.Path, tilecraft: str) -> int:
    errors = []
    tasks = sorted(p.parent for p in root.glob("tasks/level*/*/proto.yaml"))
    found = {check_task(t, root / "solutions", tilecraft, errors) for t in tasks}
    names = {name for _, name, _ in found}
    for solution in sorted((root / "solutions").iterdir()):
        if solution.name not in names:
            errors.append(f"{solution}: a solution without a task folder")
    documented, section = docs_table(root / "docs/tasks.md")
    for row in sorted(found - documented):
        errors.append(f"docs/tasks.md: no suite row `| {row[0]} | `{row[1]}` | {row[2]} |` for the task folder "
                      "(scripts/suite_table.py prints the rows)")
    for row in sorted(documented - found):
        errors.append(f"docs/tasks.md: row for level {row[0]} `{row[1]}` {row[2]} matches no task folder")
    categories = {category for _, _, category in found}
    claim = f"{len(found)} tasks over {len(categories)} of the 14 categories"
    if claim not in section:
        errors.append(f"docs/tasks.md: the suite section must say '{claim}'")
    for e in errors:
        print(f"error: {e}")
    print(f"{claim}: {', '.join(sorted(categories))}; {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1]), sys.argv[2]))
