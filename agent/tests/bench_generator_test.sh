#!/bin/sh
# `tilecraft bench --generator llm` end to end: a scripted model server answers the DSL mode (a kernel with an
# undefined name, then the right one) and then the AscendC mode (the packed example project with a typo, then the
# right one) on tasks/level1/add. Each mode's agent run is scored by the bench, and the generator table compares the
# two: both solved in 2 rounds, Comp@1 = Pass@1 = 100%. Then two endpoints in one run, a row per model, and the
# usage errors.
# Usage: bench_generator_test.sh TILECRAFT SCRIPTED_LLM_SERVER SOURCE_DIR
set -u
tilecraft=$1
server=$2
src=$3
. "$src/agent/tests/scripted_model.sh"

"$tilecraft" project pack "$src/examples/ascendc/add_custom" --out "$work/good.py" > /dev/null || fail "project pack"
/usr/bin/python3 - "$src" "$work" <<'PY'
import json, sys
src, work = sys.argv[1], sys.argv[2]
tile = open(f"{src}/solutions/add/add.tile").read()
submission = open(f"{work}/good.py").read()
def reply(code):
    return "My kernel:\n\n```python\n" + code + "```\n"
with open(f"{work}/script.jsonl", "w") as w:
    broken = tile.replace("c = a + b", "c = a + bias")
    # The two-mode run, then the two-endpoint run (local right at once, other after one repair).
    for text in (broken, tile, submission.replace("    Add(z, x, y,", "    AddTypo(z, x, y,", 1), submission,
                 tile, broken, tile):
        w.write(json.dumps({"content": reply(text)}) + "\n")
PY
start_model "$work/script.jsonl"

bench() {
  "$tilecraft" bench "$src/tasks/level1/add" --cache "$work/cache" --quiet "$@"
}
bench --generator llm --config "$work/endpoints.yaml" --endpoint local --mode dsl --mode ascendc \
  --examples "$src/solutions" --ascendc-example "$src/examples/ascendc/add_custom" --samples 1 --rounds 3 \
  --target-limit 0 --smoke --out "$work/out" > "$work/out1" 2> "$work/err1"
status=$?
[ $status -eq 0 ] || fail "bench --generator llm exited $status: $(tail -5 "$work/err1")"
for mode in dsl ascendc; do
  grep -Eq "^\| $mode \| [^|]+ \| all \| 1 \| 1 \| 100.0% \| 100.0% \| 100.0% \| 100.0% \| [0-9.]+% \| 1 \| 2.00 \| [0-9]+ \| [0-9.]+ \|$" \
    "$work/out/generators.md" || fail "the $mode row: $(cat "$work/out/generators.md")"
  grep -q "^| $mode | [^|]* | Math | 1 |" "$work/out/generators.md" || fail "no Math row for $mode"
  /usr/bin/python3 - "$work/out/$mode/bench/results.jsonl" "$mode" <<'PY' || fail "$mode bench rows: $(cat "$work/out/$mode/bench/results.jsonl")"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if len(rows) == 1 and rows[0]["kind"] == sys.argv[2] and rows[0]["correct"] else 1)
PY
done
grep -q "^# Generators$" "$work/out1" || fail "the table was not printed: $(cat "$work/out1")"
requests=$(wc -l < "$work/requests.jsonl")
[ "$requests" -eq 4 ] || fail "the server got $requests requests, want 4"

# Two endpoints, one table: a row per model.
bench --generator llm --config "$work/endpoints.yaml" --endpoint local --endpoint other --mode dsl \
  --examples "$src/solutions" --samples 1 --rounds 3 --target-limit 0 --smoke --out "$work/out2" \
  > "$work/out3" 2> "$work/err3"
status=$?
[ $status -eq 0 ] || fail "two endpoints: exit $status: $(tail -5 "$work/err3")"
grep -Eq "^\| dsl \| scripted \| all \| 1 \| 1 \| 100.0% \| 100.0% \| 100.0% \| 100.0% \| [0-9.]+% \| 1 \| 1.00 \|" \
  "$work/out2/generators.md" || fail "local's row: $(cat "$work/out2/generators.md")"
grep -Eq "^\| dsl \| scripted-other \| all \| 1 \| 1 \| 100.0% \| 100.0% \| 100.0% \| 100.0% \| [0-9.]+% \| 1 \| 2.00 \|" \
  "$work/out2/generators.md" || fail "other's row: $(cat "$work/out2/generators.md")"
[ -f "$work/out2/local/dsl/bench/results.jsonl" ] && [ -f "$work/out2/other/dsl/bench/results.jsonl" ] \
  || fail "the per-endpoint folders: $(ls -R "$work/out2" | head -20)"

# Usage errors, each exit 2 with its message.
expect_usage() {  # expect_usage MESSAGE ARGS...
  want=$1
  shift
  bench "$@" --out "$work/x" > /dev/null 2> "$work/err"
  got_status=$?
  [ $got_status -eq 2 ] && grep -qxF "$want" "$work/err" || fail "bench $*: exit $got_status: $(cat "$work/err")"
}
expect_usage "error: --generator llm writes its own solutions: drop --solutions" \
  --generator llm --config "$work/endpoints.yaml" --endpoint local --solutions "$src/solutions"
expect_usage "error: --generator llm needs --endpoint (or --replay DIR to rerun a recorded run offline)" \
  --generator llm
expect_usage "error: --generator llm takes one task folder or suite (got 2)" \
  "$src/tasks/level1/relu" --generator llm --config "$work/endpoints.yaml" --endpoint local

[ $failed -eq 0 ] && echo "bench generator: all checks passed"
exit $failed
