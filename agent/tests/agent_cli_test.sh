#!/bin/sh
# `tilecraft agent` end to end: a scripted OpenAI-compatible server on loopback plays a model that sends prose with
# a kernel that does not compile, then the fix (with a reasoning field); the real compiler refuses the first, the
# harness judges the second in its sandbox on the add task's cases. Then a 401 ends a sample with the message and
# exit 1, and --resume runs only what is not finished. A run recorded with --reply-cache replays with the server
# stopped and no endpoint configured (--replay) to the identical table and transcripts (time fields aside); a
# request the recording does not hold ends its sample with the key. (--target-limit 0: a correct kernel ends its
# sample; the request to speed up a slow one is agent_tests'.)
# Usage: agent_cli_test.sh TILECRAFT SCRIPTED_LLM_SERVER SOURCE_DIR
set -u
tilecraft=$1
server=$2
src=$3
. "$src/agent/tests/scripted_model.sh"

# The replies: the shipped expert kernel of `add` (one generic program for f16 and f32), the first with a name it
# never defined.
/usr/bin/python3 - "$src" "$work/script.jsonl" <<'PY'
import json, sys
src, out = sys.argv[1], sys.argv[2]
good = open(f"{src}/solutions/add/add.tile").read()
broken = good.replace("c = a + b", "c = a + bias")
def reply(*kernels):
    return "Here is my kernel: it splits N over the vector cores.\n\n" + "".join(
        f"```python\n{k}```\n\n" for k in kernels) + "It double-buffers the tiles."
with open(out, "w") as w:
    w.write(json.dumps({"content": reply(broken)}) + "\n")
    w.write(json.dumps({"content": reply(good), "reasoning": "bias is not defined; x + y is the sum"}) + "\n")
    w.write(json.dumps({"status": 401, "body": {"error": {"message": "Incorrect API key provided",
                                                           "code": "invalid_api_key"}}}) + "\n")
    w.write(json.dumps({"content": reply(good)}) + "\n")
    # The recorded run: sample 0 repairs a compile error, sample 1 is right at once.
    w.write(json.dumps({"content": reply(broken)}) + "\n")
    w.write(json.dumps({"content": reply(good), "reasoning": "bias is not defined; x + y is the sum"}) + "\n")
    w.write(json.dumps({"content": reply(good)}) + "\n")
PY

start_model "$work/script.jsonl"

run() {
  "$tilecraft" agent "$src/tasks/level1/add" --config "$work/endpoints.yaml" --endpoint local \
    --examples "$src/solutions" --rounds 3 --target-limit 0 --cache "$work/cache" "$@"
}

# 1. Sample 0: the compile error goes back, the fix is judged correct. Sample 1: the 401 stops it, exit 1.
run --samples 2 --out "$work/out" > "$work/out1" 2> "$work/err1"
status=$?
[ $status -eq 1 ] || fail "the first run exited $status (want 1: sample 1 got a 401): $(cat "$work/err1")"
grep -q "add sample 1 round 0: endpoint 'local': HTTP 401" "$work/err1" || fail "the 401 was not reported: $(cat "$work/err1")"
/usr/bin/python3 - "$work" <<'PY' || failed=1
import json, sys
work = sys.argv[1]
rows = [json.loads(l) for l in open(f"{work}/out/transcripts.jsonl")]
attempts = [r for r in rows if r["type"] == "attempt"]
samples = [r for r in rows if r["type"] == "sample"]
def check(ok, what):
    if not ok:
        print(f"FAIL: {what}")
        sys.exit(1)
check(len(attempts) == 3, f"3 attempts, got {len(attempts)}")
a0, a1, a2 = attempts
check(a0["stage"] == "compile" and "bias" in a0["error"] and "add.tile:" in a0["error"], f"attempt 0: {a0['stage']} {a0['error']!r}")
check("The compiler refused the program" in a0["feedback"], "attempt 0's feedback")
check(a1["stage"] == "judged" and a1["correct"], f"attempt 1: {a1['stage']} {a1.get('verdict')}")
check(a1["reasoning"] == "bias is not defined; x + y is the sum", "the reasoning field is kept")
check(a1["verdict"]["cases_passed"] == a1["verdict"]["cases_total"] > 0, f"every case passed: {a1['verdict']}")
check(a1["messages"][3]["content"] == a0["feedback"], "the repair request carries the feedback")
check(a2["stage"] == "transport" and "401" in a2["error"], f"attempt 2: {a2['stage']}")
check([(s["task"], s["sample"], s["correct"]) for s in samples] == [("add", 0, True)], f"finished samples {samples}")
PY
[ -f "$work/out/solutions/add/0/add.tile" ] && [ "$(ls "$work/out/solutions/add/0")" = add.tile ] \
  || fail "sample 0's kernel was not written: $(ls "$work/out/solutions/add/0")"

# 2. Without --resume the folder is refused; with it only sample 1 runs, and is correct at once.
run --samples 2 --out "$work/out" > /dev/null 2> "$work/err2"
status=$?
[ $status -eq 2 ] || fail "a second run without --resume exited $status"
grep -q "already holds transcripts.jsonl" "$work/err2" || fail "no refusal: $(cat "$work/err2")"
run --samples 2 --out "$work/out" --resume > "$work/out3" 2> "$work/err3"
status=$?
[ $status -eq 0 ] || fail "--resume exited $status: $(cat "$work/err3")"
requests=$(wc -l < "$work/requests.jsonl")
[ "$requests" -eq 4 ] || fail "the server got $requests requests, want 4"
grep -Eq "^add +1 +1 +yes +yes" "$work/out3" || fail "the resumed table: $(cat "$work/out3")"

# 3. Record a run, stop the server, replay it offline: the same table, the same transcripts but for time.
run --samples 2 --out "$work/recorded" --reply-cache "$work/replies" > "$work/out4" 2> "$work/err4"
status=$?
[ $status -eq 0 ] || fail "the recorded run exited $status: $(cat "$work/err4")"
grep -q "^reply cache $work/replies: 0 hits, 3 recorded$" "$work/out4" || fail "the recording's count: $(cat "$work/out4")"
kill $server_pid
wait $server_pid 2>/dev/null
server_pid=
unset TILECRAFT_LLM_BASE_URL
replay() {
  "$tilecraft" agent "$src/tasks/level1/add" --examples "$src/solutions" --rounds 3 --target-limit 0 \
    --cache "$work/cache" "$@"
}
table() { sed '/^model: /,$d' "$1"; }
replay --samples 2 --out "$work/replayed" --replay "$work/replies" > "$work/out5" 2> "$work/err5"
status=$?
[ $status -eq 0 ] || fail "the replay exited $status: $(cat "$work/err5")"
table "$work/out4" > "$work/table4"
table "$work/out5" > "$work/table5"
[ "$(wc -l < "$work/table4")" -eq 3 ] || fail "the recorded table: $(cat "$work/out4")"
cmp -s "$work/table4" "$work/table5" || fail "the replayed table differs: $(diff "$work/table4" "$work/table5")"
grep -q "^model: replayed from $work/replies: 3 replies, 0 missing$" "$work/out5" || fail "replay count: $(cat "$work/out5")"
/usr/bin/python3 - "$work/recorded/transcripts.jsonl" "$work/replayed/transcripts.jsonl" <<'PY' || failed=1
import json, sys
def untimed(path):
    rows = [json.loads(l) for l in open(path)]
    for r in rows:
        r.pop("seconds")
        r.pop("wall_seconds", None)
    return rows
recorded, replayed = untimed(sys.argv[1]), untimed(sys.argv[2])
if len(recorded) != 5 or recorded != replayed:
    print(f"FAIL: the replayed transcripts differ from the recorded ones ({len(recorded)} and {len(replayed)} lines)")
    sys.exit(1)
PY
# A third sample was never recorded: it ends at its first request with the key, exit 1; the others replay.
replay --samples 3 --out "$work/replayed3" --replay "$work/replies" > "$work/out6" 2> "$work/err6"
status=$?
[ $status -eq 1 ] || fail "a replay miss exited $status"
grep -Eq "^add sample 2 round 0: replay: no recorded reply for request [0-9a-f]{64} in $work/replies \(model scripted, 2 messages, seed 3\)$" \
  "$work/err6" || fail "the replay miss: $(cat "$work/err6")"
grep -q "^hint: a replay answers only the requests its recording made" "$work/err6" || fail "no hint: $(cat "$work/err6")"
grep -Eq "^add +2 +1 +no +no +0.00 +0$" "$work/out6" || fail "the missed sample's row: $(cat "$work/out6")"
grep -q "^model: replayed from $work/replies: 3 replies, 1 missing$" "$work/out6" || fail "miss count: $(cat "$work/out6")"

# 4. Usage errors: no endpoint and no replay; a replay folder with nothing recorded; one with two endpoints.
replay --out "$work/x1" > /dev/null 2> "$work/err7"
status=$?
[ $status -eq 2 ] && grep -q "^error: --endpoint is required (or --replay DIR to rerun a recorded run offline)$" \
  "$work/err7" || fail "no endpoint: exit $status: $(cat "$work/err7")"
mkdir "$work/empty"
replay --out "$work/x2" --replay "$work/empty" > /dev/null 2> "$work/err8"
status=$?
[ $status -eq 2 ] && grep -q "^error: --replay $work/empty: no recorded replies (no endpoints.json)$" "$work/err8" \
  && grep -q "^hint: record a run first with --reply-cache $work/empty$" "$work/err8" \
  || fail "empty replay folder: exit $status: $(cat "$work/err8")"
mkdir "$work/two"
echo '[{"name": "a", "base_url": "http://h:1/v1", "model": "m1"}, {"name": "b", "base_url": "http://h:2/v1", "model": "m2"}]' \
  > "$work/two/endpoints.json"
replay --out "$work/x3" --replay "$work/two" > /dev/null 2> "$work/err9"
status=$?
[ $status -eq 2 ] && grep -q "^error: --replay $work/two: it holds the replies of 2 endpoints: a (m1 at http://h:1/v1), b (m2 at http://h:2/v1)$" "$work/err9" \
  && grep -q "^hint: pick the one to replay with --endpoint (and --config)$" "$work/err9" \
  || fail "two endpoints: exit $status: $(cat "$work/err9")"

[ $failed -eq 0 ] && echo "agent cli: all checks passed"
exit $failed
