#!/usr/bin/python3
"""Acceptance check of the golden worker (docs/goldens.md): every golden of a CANN Bench checkout on one small
case each, through the same worker and protocol the harness uses.

    /usr/bin/python3 harness/tools/run_all_goldens.py CHECKOUT [--json OUT] [--timeout S]

For each task folder under CHECKOUT/tasks and CHECKOUT/bench_lab (a folder with proto.yaml and golden.py) it
takes the case of cases.csv with the fewest elements, asks the worker for its inputs (drawn with numpy in the
value ranges, then golden.py's get_input hook when there is one: the harness's C++ generator is not used
here), runs the golden, and prints one line per task and a summary: how many ran, which failed and why, the
golden's time per case and the worker's start-up time. Nothing is written into the checkout.
"""
import argparse
import ast
import csv
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(os.path.dirname(HERE), "python", "golden_worker.py")


def lenient_json(text):
    """cases.csv JSON with bare inf/nan, or Python literals ('float16', True), as some rows write them."""
    fixed = re.sub(r'(?<![\w"])-inf\b', "-Infinity", text)
    fixed = re.sub(r'(?<![\w"-])inf\b', "Infinity", fixed)
    fixed = re.sub(r'(?<![\w"])nan\b', "NaN", fixed)
    try:
        return json.loads(fixed)
    except ValueError:
        return ast.literal_eval(text)


def find_tasks(root):
    found = []
    for top in ("tasks", "bench_lab"):
        for dirpath, _dirs, files in os.walk(os.path.join(root, top)):
            if "proto.yaml" in files and "golden.py" in files:
                found.append(dirpath)
    return sorted(found)


def numel(shape):
    if shape is None:
        return 0
    if shape and isinstance(shape[0], list):
        return sum(numel(s) for s in shape)
    n = 1
    for d in shape:
        n *= int(d)
    return n


def first_dtype(d):
    while isinstance(d, list):
        d = d[0] if d else None
    return d


def first_range(r):
    while isinstance(r, list) and r and isinstance(r[0], list):
        r = r[0]
    return r


def load_case(task_dir, input_names):
    with open(os.path.join(task_dir, "cases.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    best = None
    for row in rows:
        try:
            shapes = lenient_json(row["input_shape"])
            dtypes = lenient_json(row["dtype"])
            attrs = lenient_json(row.get("attrs") or "{}") or {}
            vr = lenient_json(row.get("value_range") or "null")
        except (ValueError, KeyError):
            continue
        size = sum(numel(s) for s in shapes)
        if best is None or size < best[0]:
            best = (size, row["case_id"], shapes, dtypes, attrs, vr)
    if best is None:
        raise ValueError("cases.csv has no readable row")
    _size, case_id, shapes, dtypes, attrs, vr = best
    n = len(shapes)
    if not isinstance(dtypes, list):
        dtypes = [dtypes] * n
    dtypes = [first_dtype(d) for d in dtypes] + [first_dtype(dtypes[-1])] * (n - len(dtypes))
    if isinstance(vr, dict):  # by input name
        vr = [vr.get(name) for name in input_names] if input_names else list(vr.values())
    if vr is None or (isinstance(vr, list) and len(vr) == 2 and not isinstance(vr[0], (list, dict))):
        ranges = [vr] * n
    else:
        ranges = [first_range(r) if isinstance(r, list) else None for r in vr] + [None] * (n - len(vr))
    for i, s in enumerate(shapes):
        if s is None:
            dtypes[i] = None
            ranges[i] = None
    return case_id, {"shapes": shapes, "dtypes": dtypes, "value_ranges": ranges, "attrs": attrs}


def proto_of(task_dir):
    with open(os.path.join(task_dir, "proto.yaml"), encoding="utf-8") as f:
        op = (yaml.safe_load(f) or {}).get("operator") or {}
    return op


def dtype_list(decl):
    d = decl.get("dtype") or decl.get("dtypes") or []
    return d if isinstance(d, list) else [d]


def output_decls(op, case):
    """The proto's outputs with the dtype combination the case's first present input selects."""
    combo = None
    for decl, dt in zip(op.get("inputs") or [], case["dtypes"]):
        if dt is None:
            continue
        options = [first_dtype(x) for x in dtype_list(decl)]
        if dt in options:
            combo = options.index(dt)
            break
    first = next((d for d in case["dtypes"] if d is not None), "float32")
    outs = []
    for decl in op.get("outputs") or []:
        options = [first_dtype(x) for x in dtype_list(decl)]
        if combo is not None and combo < len(options):
            dt = options[combo]
        elif len(options) == 1:
            dt = options[0]
        else:
            dt = first
        outs.append({"name": decl.get("name", "out"), "dtype": dt})
    return outs


def function_names(task_dir, op):
    names = []
    m = re.match(r"^\s*(\w+)\s*\(", op.get("schema") or "")
    if m:
        names.append(m.group(1))
    names.append(os.path.basename(task_dir))
    if op.get("name"):
        names.append(str(op["name"]).lower())
    return list(dict.fromkeys(names))


class Worker:
    def __init__(self, python, log):
        self.python, self.log, self.proc = python, log, None
        self.starts = []

    def start(self):
        t0 = time.perf_counter()
        self.proc = subprocess.Popen([self.python, "-B", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, text=True, bufsize=1)
        banner = self.proc.stdout.readline()
        self.starts.append(time.perf_counter() - t0)
        if not json.loads(banner or "{}").get("ok"):
            raise RuntimeError("the worker did not start: " + banner)

    def stop(self):
        if self.proc:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def request(self, req, timeout):
        if self.proc is None:
            self.start()
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            self.stop()
            return {"ok": False, "error": "timed out after %g s" % timeout}
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            self.proc = None
            return {"ok": False, "error": "the worker died (exit status %s)" % code}
        return json.loads(line)


def reason_of(error):
    lines = [l for l in error.strip().splitlines() if l.strip()]
    return lines[-1] if lines else error


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout")
    ap.add_argument("--json", help="write per-task results here")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--only", help="regex on the task path")
    args = ap.parse_args()

    tasks = find_tasks(args.checkout)
    if args.only:
        tasks = [t for t in tasks if re.search(args.only, t)]
    scratch = tempfile.mkdtemp(prefix="tilecraft-goldens-")
    log = open(os.path.join(scratch, "worker.log"), "w")
    worker = Worker(sys.executable, log)
    results = []
    wall0 = time.perf_counter()
    for i, task_dir in enumerate(tasks):
        rel = os.path.relpath(task_dir, args.checkout)
        out_dir = os.path.join(scratch, "t%d" % i)
        entry = {"task": rel}
        t0 = time.perf_counter()
        try:
            op = proto_of(task_dir)
            names = [d.get("name", "in%d" % k) for k, d in enumerate(op.get("inputs") or [])]
            case_id, case = load_case(task_dir, names)
            entry["case"] = case_id
            names += ["in%d" % k for k in range(len(names), len(case["shapes"]))]
            r = worker.request({"op": "inputs", "task_dir": task_dir, "case": case, "seed": 1, "names": names,
                                "dtypes": case["dtypes"], "out_dir": os.path.join(out_dir, "in")}, args.timeout)
            if not r.get("ok"):
                entry.update(ok=False, stage="inputs", error=r.get("error", ""))
            else:
                entry["hook"] = r.get("hook")
                g = worker.request({"op": "golden", "task_dir": task_dir, "functions": function_names(task_dir, op),
                                    "inputs": r["inputs"], "attrs": case["attrs"], "outputs": output_decls(op, case),
                                    "out_dir": os.path.join(out_dir, "out")}, args.timeout)
                if g.get("ok"):
                    entry.update(ok=True, seconds=g["seconds"], ops=len(g["ops"]), outputs=len(g["outputs"]))
                else:
                    entry.update(ok=False, stage="golden", error=g.get("error", ""))
        except Exception as exc:  # a folder the driver cannot read is that task's failure
            entry.update(ok=False, stage="load", error="%s: %s" % (type(exc).__name__, exc))
        entry["wall"] = time.perf_counter() - t0
        results.append(entry)
        status = "ok   %7.3f s %4d ops" % (entry["seconds"], entry["ops"]) if entry["ok"] else \
            "FAIL [%s] %s" % (entry["stage"], reason_of(entry["error"])[:160])
        print("%-70s case %-4s %s" % (rel, entry.get("case", "-"), status), flush=True)
    worker.stop()
    log.close()
    shutil.rmtree(scratch, ignore_errors=True)
    wall = time.perf_counter() - wall0

    ok = [r for r in results if r["ok"]]
    failed = [r for r in results if not r["ok"]]
    secs = sorted(r["seconds"] for r in ok)
    print()
    print("goldens: %d folders, %d ran, %d failed" % (len(results), len(ok), len(failed)))
    if secs:
        print("golden time per case: median %.3f s, mean %.3f s, max %.3f s" %
              (secs[len(secs) // 2], sum(secs) / len(secs), secs[-1]))
    if worker.starts:
        print("worker start-up: first %.2f s, %d starts" % (worker.starts[0], len(worker.starts)))
    print("wall time: %.1f s" % wall)
    for r in failed:
        print("  %s: [%s] %s" % (r["task"], r["stage"], reason_of(r["error"])))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "starts": worker.starts, "wall": wall}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
