#!/usr/bin/env bash
# tilecraft bench end to end, with real kernels, goldens and the sandbox:
#  1. the good solutions pass every case of the test suite;
#  2. zeros, a copied input and a constant, which all pass allclose on tiny values, are caught as anti_cheat;
#  3. kill -9 in the middle of a run, then --resume, gives the uninterrupted run's summary, with no process left;
#  4. usage errors: exact text and exit status.
# Usage: bench_e2e.sh TILECRAFT DATA_DIR SCRATCH
set -euo pipefail
tilecraft=$1
data=$2
scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch"
cache=$scratch/cache
fail() { echo "FAIL: $*" >&2; exit 1; }
bench() { "$tilecraft" bench "$data/tasks" --cache "$cache" -q "$@"; }

# 1. Good solutions: every case correct.
bench --solutions "$data/solutions/good" --out "$scratch/good" > "$scratch/good.txt"
grep -qE '^  all +2 +4 +1 +100\.0% +100\.0%' "$scratch/good.txt" || { cat "$scratch/good.txt"; fail "good solutions do not all pass"; }
[ "$(grep -c '"correct":true' "$scratch/good/results.jsonl")" = 4 ] || fail "expected 4 correct rows"
grep -q '<canvas' "$scratch/good/report.html" || fail "no chart in report.html"

# 2. Trivial outputs that pass allclose on values below its atol.
for cheat in zeros copy constant; do
  bench --solutions "$data/solutions/$cheat" --task tiny_relu --rule allclose --out "$scratch/$cheat" > /dev/null
done
expect_row() {  # DIR MESSAGE
  grep -qF "\"failure\":\"anti_cheat\",\"message\":\"$2\"" "$1/results.jsonl" || { cat "$1/results.jsonl"; fail "$1: expected anti_cheat: $2"; }
}
expect_row "$scratch/zeros" "seed 1: y is all zeros but the golden is not"
expect_row "$scratch/copy" "seed 1: y is a copy of input 'x' but the golden is not"
expect_row "$scratch/constant" "seed 1: y is the constant 0.000500202 everywhere but the golden is not"

# 3. kill -9 after the first row, resume, compare with the uninterrupted run (1.).
out=$scratch/killed
setsid "$tilecraft" bench "$data/tasks" --cache "$scratch/cache-killed" -q --jobs 1 --solutions "$data/solutions/good" \
  --out "$out" > /dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do
  [ -s "$out/results.jsonl" ] && break
  sleep 0.1
done
[ -s "$out/results.jsonl" ] || fail "no row after 60 s"
kill -9 -- "-$pid" 2>/dev/null || kill -9 "$pid"
wait "$pid" 2>/dev/null || true
# The sandboxes die with their parent (bwrap --die-with-parent, then their PID namespace); on a loaded machine
# that takes a moment, so poll for up to 10 s before calling anything a survivor.
for _ in $(seq 1 100); do
  pgrep -f -- "$out" > /dev/null || pgrep -f "cache-killed" > /dev/null || break
  sleep 0.1
done
if pgrep -f -- "$out" > /dev/null || pgrep -f "cache-killed" > /dev/null; then
  pgrep -af -- "$out" >&2 || true
  fail "processes of the killed run are still alive"
fi
rows=$(grep -c . "$out/results.jsonl")
[ "$rows" -lt 4 ] || fail "the run finished before it was killed ($rows rows)"
"$tilecraft" bench "$data/tasks" --cache "$scratch/cache-killed" -q --solutions "$data/solutions/good" --out "$out" --resume > /dev/null
cmp "$out/summary.md" "$scratch/good/summary.md" || fail "resumed summary differs from the uninterrupted one"
[ "$(grep -c . "$out/results.jsonl")" = 4 ] || fail "resumed run does not have 4 rows"

# 4. Usage errors.
expect_usage() {  # EXPECTED-STDERR ARGS...
  local want=$1
  shift
  set +e
  got=$("$tilecraft" bench "$@" 2>&1 >/dev/null)
  status=$?
  set -e
  [ "$status" = 2 ] || fail "bench $*: exit $status, expected 2"
  [ "$got" = "$want" ] || fail "bench $*: said '$got', expected '$want'"
}
expect_usage "error: task folder '$scratch/none' does not exist" "$scratch/none" --solutions "$data/solutions/good" --out "$scratch/u"
expect_usage "error: --rule fast: expected cann or allclose" "$data/tasks" --rule fast --out "$scratch/u"
expect_usage "error: --shard: i must be below N (0 to 3), got '4/4'" "$data/tasks" --shard 4/4 --out "$scratch/u"
expect_usage "error: $scratch/good/results.jsonl already holds 4 results; pass --resume to continue that run, or choose another --out" \
  "$data/tasks" --solutions "$data/solutions/good" --out "$scratch/good"
echo "bench e2e: 4 passed, 0 failed"
