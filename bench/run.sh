#!/bin/sh
# Runs the emulator benchmark of BUILD (a CMake build folder) and prints, for every case, the ratio
# emulator time / plain C++ loop time measured in this one run (process CPU time: the emulated core runs on a thread
# of its own). Extra arguments go to the benchmark, e.g. --benchmark_filter=add/float.
#   bench/run.sh build [--benchmark_min_time=0.5]
set -eu
if [ $# -lt 1 ]; then
  echo "usage: bench/run.sh BUILD_DIR [benchmark args...]" >&2
  exit 2
fi
build=$1
shift
bench="$build/bench/emu_bench"
if [ ! -x "$bench" ]; then
  echo "bench/run.sh: $bench not found; build it with: cmake --build $build --target emu_bench" >&2
  exit 2
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bench" --benchmark_out="$out" --benchmark_out_format=json "$@"
python3 - "$out" <<'PY'
import json, sys

runs = json.load(open(sys.argv[1]))["benchmarks"]
times = {}
errors = []
for r in runs:
    if r.get("run_type", "iteration") != "iteration":
        continue
    name = r["name"].replace("/process_time", "")
    case, side = name.rsplit("/", 1)
    if r.get("error_occurred"):
        errors.append(f"{name}: {r.get('error_message', 'failed')}")
        continue
    times.setdefault(case, {})[side] = (r["cpu_time"], r["real_time"], r.get("items_per_second", 0.0))

print()
print(f"{'case':<26}{'emu Melem/s':>12}{'plain Melem/s':>15}{'emu/plain cpu':>15}{'emu/plain wall':>16}")
for case, t in times.items():
    if "emu" not in t or "plain" not in t:
        continue
    (ec, ew, ei), (pc, pw, pi) = t["emu"], t["plain"]
    print(f"{case:<26}{ei / 1e6:>12.1f}{pi / 1e6:>15.1f}{ec / pc:>14.1f}x{ew / pw:>15.1f}x")
print("target: emu/plain cpu within 5x for tiles of 8 KiB and more")
for e in errors:
    print("FAILED", e)
sys.exit(1 if errors else 0)
PY
