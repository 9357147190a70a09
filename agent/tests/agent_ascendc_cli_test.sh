#!/bin/sh
# `tilecraft agent --mode ascendc` end to end: a scripted OpenAI-compatible server plays a model that writes whole
# AscendC custom operators in MultiKernelBench's six-string format: first the packed example project with a typo
# in its kernel, then the right one. The harness builds the first in its sandbox and the compiler's error goes back
# at the submission's own line; the second is judged correct on the add task's cases, and `tilecraft bench` scores
# the kept submission as an AscendC solution. Then the usage errors of --mode and --ascendc-example.
# Usage: agent_ascendc_cli_test.sh TILECRAFT SCRIPTED_LLM_SERVER SOURCE_DIR
set -u
tilecraft=$1
server=$2
src=$3
. "$src/agent/tests/scripted_model.sh"

"$tilecraft" project pack "$src/examples/ascendc/add_custom" --out "$work/good.py" > /dev/null || fail "project pack"
/usr/bin/python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
good = open(f"{work}/good.py").read()
typo = good.replace("    Add(z, x, y,", "    AddTypo(z, x, y,", 1)
assert typo != good
def reply(code):
    return "The kernel splits the elements over the vector cores.\n\n```python\n" + code + "```\n"
with open(f"{work}/script.jsonl", "w") as w:
    w.write(json.dumps({"content": reply(typo)}) + "\n")
    w.write(json.dumps({"content": reply(good), "reasoning": "AddTypo is not an AscendC API; Add is"}) + "\n")
PY

start_model "$work/script.jsonl"
"$tilecraft" agent "$src/tasks/level1/add" --config "$work/endpoints.yaml" --endpoint local --mode ascendc \
  --ascendc-example "$src/examples/ascendc/add_custom" --rounds 3 --target-limit 0 --cache "$work/cache" \
  --out "$work/out" > "$work/out1" 2> "$work/err1"
status=$?
[ $status -eq 0 ] || fail "the agent exited $status: $(cat "$work/err1")"
grep -Eq "^add +0 +2 +yes +yes" "$work/out1" || fail "the table: $(cat "$work/out1")"
line=$(/usr/bin/python3 -c "
import sys
text = open(sys.argv[1]).read().replace('    Add(z, x, y,', '    AddTypo(z, x, y,', 1)
print(text[:text.index('AddTypo')].count(chr(10)) + 1)" "$work/good.py")
/usr/bin/python3 - "$work" "$line" <<'PY' || failed=1
import json, sys
work, line = sys.argv[1], sys.argv[2]
rows = [json.loads(l) for l in open(f"{work}/out/transcripts.jsonl")]
attempts = [r for r in rows if r["type"] == "attempt"]
def check(ok, what):
    if not ok:
        print(f"FAIL: {what}")
        sys.exit(1)
check(len(attempts) == 2, f"2 attempts, got {len(attempts)}")
a0, a1 = attempts
check(all(r["mode"] == "ascendc" for r in rows), "every line says mode ascendc")
check(a0["stage"] == "judged" and not a0["compiled"], f"attempt 0: {a0['stage']} compiled={a0['compiled']}")
want = f"submission.py:{line}:12: error: 'AddTypo' was not declared in this scope"
check(want in a0["feedback"], f"attempt 0's feedback names the submission's line: {a0['feedback']!r} (want {want!r})")
check(a0["feedback"].startswith("The program does not build (unknown_api)"), f"feedback: {a0['feedback']!r}")
check(a1["messages"][3]["content"] == a0["feedback"], "the repair request carries the feedback")
check(a1["correct"] and a1["verdict"]["cases_passed"] == a1["verdict"]["cases_total"] > 0, f"attempt 1: {a1.get('verdict')}")
check(list(a1["files"]) == ["submission.py"], f"files {list(a1['files'])}")
system, user = a0["messages"][0]["content"], a0["messages"][1]["content"]
check("project_json_src" in system and "DataCopyPad" in system and "BEGIN_TILING_DATA_DEF" in system, "system prompt")
check("@kernel" not in system, "no Tile DSL in the AscendC prompt")
check("worked example" not in user, "the add example is not shown to the add task")
PY
[ "$(ls "$work/out/solutions/add/0")" = submission.py ] || fail "the kept submission: $(ls "$work/out/solutions/add/0")"
"$tilecraft" bench "$src/tasks/level1/add" --solutions "$work/out/solutions" --smoke --out "$work/bench" \
  --cache "$work/cache" > "$work/out2" 2> "$work/err2"
status=$?
[ $status -eq 0 ] || fail "bench of the kept submission exited $status: $(cat "$work/err2")"
/usr/bin/python3 - "$work/bench/results.jsonl" <<'PY' || fail "bench's record: $(cat "$work/bench/results.jsonl")"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if len(rows) == 1 and rows[0]["kind"] == "ascendc" and rows[0]["correct"] else 1)
PY

# Usage errors.
"$tilecraft" agent "$src/tasks/level1/add" --endpoint local --config "$work/endpoints.yaml" --mode cuda \
  --out "$work/x" > /dev/null 2> "$work/err3"
status=$?
[ $status -ne 0 ] && grep -q "mode" "$work/err3" || fail "--mode cuda: exit $status: $(cat "$work/err3")"
"$tilecraft" agent "$src/tasks/level1/add" --endpoint local --config "$work/endpoints.yaml" --mode ascendc \
  --ascendc-example "$work/none" --out "$work/x" > /dev/null 2> "$work/err4"
status=$?
[ $status -eq 2 ] && grep -qx "error: --ascendc-example $work/none: no such folder (a CANN project with its <op>.json, e.g. examples/ascendc/add_custom; '' for none)" "$work/err4" \
  || fail "--ascendc-example: exit $status: $(cat "$work/err4")"

[ $failed -eq 0 ] && echo "agent ascendc cli: all checks passed"
exit $failed
