#!/bin/sh
# The fix memory end to end, measured with the scripted server. A first run repairs a kernel that uses an undefined
# name; `tilecraft memory mine` keeps that fix. Then the same failure kind comes again: without the memory the
# model (which does not know the fix) repeats its mistake once before getting it right, 3 rounds; with --memory the
# repair request carries the mined fix, and the server's `when` reply stands for a model that applies it: 2 rounds.
# Then `memory list` and `memory prune`, and the usage errors' text and status.
# Usage: fix_memory_cli_test.sh TILECRAFT SCRIPTED_LLM_SERVER SOURCE_DIR
set -u
tilecraft=$1
server=$2
src=$3
. "$src/agent/tests/scripted_model.sh"

/usr/bin/python3 - "$src" "$work" <<'PY'
import json, sys
src, work = sys.argv[1], sys.argv[2]
good = open(f"{src}/solutions/add/add.tile").read()
broken = good.replace("c = a + b", "c = a + bias")
def reply(code):
    return json.dumps({"content": "My kernel:\n\n```python\n" + code + "```\n"}) + "\n"
open(f"{work}/learn.jsonl", "w").write(reply(broken) + reply(good))
open(f"{work}/plain.jsonl", "w").write(reply(broken) + reply(broken) + reply(good))
hinted = json.dumps({"content": "Applying the fix:\n\n```python\n" + good + "```\n", "when": "Fixes that worked"})
open(f"{work}/memory.jsonl", "w").write(reply(broken) + hinted + "\n" + reply(broken) + reply(good))
PY
agent() {  # agent SCRIPT OUT [FLAGS...]: one sample of the add task against a fresh server on SCRIPT
  script=$1
  out=$2
  shift 2
  start_model "$script"
  "$tilecraft" agent "$src/tasks/level1/add" --config "$work/endpoints.yaml" --endpoint local \
    --examples "$src/solutions" --rounds 4 --target-limit 0 --cache "$work/cache" --out "$out" "$@" \
    > "$out.stdout" 2> "$out.stderr"
  agent_status=$?
  stop_model
}
rounds() { sed -n 's/^add  *0  *\([0-9]*\)  *yes  *yes.*/\1/p' "$1.stdout"; }

agent "$work/learn.jsonl" "$work/learn"
[ $agent_status -eq 0 ] && [ "$(rounds "$work/learn")" = 2 ] || fail "the learning run: $(cat "$work/learn.stdout" "$work/learn.stderr")"
out=$("$tilecraft" memory mine "$work/learn/transcripts.jsonl" --memory "$work/fixes.jsonl" 2>&1)
[ "$out" = "$work/fixes.jsonl: 1 fixes mined from 1 transcript file(s), 1 new; 1 in the memory" ] || fail "mine: $out"
out=$("$tilecraft" memory list --memory "$work/fixes.jsonl" 2>&1)
echo "$out" | grep -Eq "^[0-9a-f]{16} +1 +dsl +compile +error: .*'bias'" && echo "$out" | grep -qx "1 fixes" \
  || fail "list: $out"

agent "$work/plain.jsonl" "$work/plain"
plain=$(rounds "$work/plain")
agent "$work/memory.jsonl" "$work/with" --memory "$work/fixes.jsonl"
with=$(rounds "$work/with")
echo "rounds to a correct kernel on the repeated failure: without the memory $plain, with it $with"
[ "$plain" = 3 ] || fail "without the memory: $(cat "$work/plain.stdout" "$work/plain.stderr")"
[ "$with" = 2 ] || fail "with the memory: $(cat "$work/with.stdout" "$work/with.stderr")"
/usr/bin/python3 - "$work/with/transcripts.jsonl" <<'PY' || failed=1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
feedback = [r for r in rows if r["type"] == "attempt"][0]["feedback"]
if not ("Fixes that worked for similar failures before" in feedback and "-            c = a + bias" in feedback
        and "+            c = a + b" in feedback):
    print("FAIL: the repair request does not carry the fix: " + feedback)
    sys.exit(1)
PY

out=$("$tilecraft" memory prune --memory "$work/fixes.jsonl" --min-seen 2 2>&1)
[ "$out" = "$work/fixes.jsonl: 1 removed, 0 left" ] || fail "prune: $out"

# Usage errors.
"$tilecraft" agent "$src/tasks/level1/add" --config "$work/endpoints.yaml" --endpoint local --out "$work/x" \
  --examples "$src/solutions" --memory "$work/none.jsonl" > /dev/null 2> "$work/err1"
status=$?
[ $status -eq 2 ] && [ "$(cat "$work/err1")" = "error: --memory $work/none.jsonl: no such file
hint: tilecraft memory mine TRANSCRIPTS... --memory $work/none.jsonl makes one from earlier runs" ] \
  || fail "agent --memory missing: exit $status: $(cat "$work/err1")"
"$tilecraft" memory list --memory "$work/none.jsonl" > /dev/null 2> "$work/err2"
status=$?
[ $status -eq 2 ] && grep -qx "error: --memory $work/none.jsonl: no such file" "$work/err2" \
  || fail "memory list missing: exit $status: $(cat "$work/err2")"
"$tilecraft" memory prune --memory "$work/fixes.jsonl" --drop 0123456789abcdef > /dev/null 2> "$work/err3"
status=$?
[ $status -eq 2 ] && grep -qx "error: --drop 0123456789abcdef: no fix with this id in $work/fixes.jsonl (tilecraft memory list shows them)" "$work/err3" \
  || fail "prune --drop unknown: exit $status: $(cat "$work/err3")"
"$tilecraft" memory mine "$work/none.jsonl" --memory "$work/fixes.jsonl" > /dev/null 2> "$work/err4"
status=$?
[ $status -eq 1 ] && grep -qx "error: $work/none.jsonl: cannot read the transcripts" "$work/err4" \
  || fail "mine of a missing file: exit $status: $(cat "$work/err4")"

[ $failed -eq 0 ] && echo "fix memory cli: all checks passed"
exit $failed
