#!/usr/bin/env bash
# What `tilecraft bench` costs on this machine: the wall time of `--smoke` and of the full shipped suite, each
# from a cold cache (goldens and kernels built) and a warm one (both cached), and the harness's own time per case
# beyond building and emulating the kernel (inputs, goldens, binding, judging, profiling, the row), from the
# rows' wall_s and kernel_s.
# Usage: bench/harness_bench.sh [BUILD_DIR]   (docs/bench.md, "Cost", records its output)
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
tilecraft=$build/cli/tilecraft
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python3=/usr/bin/python3
run() {  # NAME CACHE ARGS...
  local name=$1 cache=$2
  shift 2
  local start end
  start=$(date +%s.%N)
  "$tilecraft" bench "$root/tasks" --solutions "$root/solutions" --cache "$scratch/$cache" --out "$scratch/$name" -q "$@" > /dev/null
  end=$(date +%s.%N)
  "$python3" - "$scratch/$name/results.jsonl" "$name" "$start" "$end" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
wall = float(sys.argv[4]) - float(sys.argv[3])
own = [r["wall_s"] - (r.get("kernel_s") or 0) for r in rows]
kern = sum(r.get("kernel_s") or 0 for r in rows)
print(f"{sys.argv[2]:<12} {len(rows):>4} cases  wall {wall:7.1f} s  kernels {kern:7.1f} s  "
      f"harness per case: mean {sum(own) / len(own):.3f} s, max {max(own):.3f} s")
PY
}
echo "tilecraft bench on $(nproc) cores ($(date -u +%Y-%m-%d))"
run smoke-cold smoke --smoke
run smoke-warm smoke --smoke
run full-cold full
run full-warm full
