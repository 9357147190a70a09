#!/bin/sh
# `tilecraft export sft|preferences` on a transcript with every kind of attempt (does not compile, wrong, correct
# and slow, correct and fast with a reasoning, a transport error, an empty reply), a `sample` line and bad lines:
# the bad lines are reported with their numbers and skipped; the outputs hold exactly the expected samples and
# pairs, and validate against agent/schemas/ (a broken line must not).
# Usage: export_cli_test.sh TILECRAFT SOURCE_DIR
set -u
tilecraft=$1
src=$2
work=$(mktemp -d)
failed=0
fail() { echo "FAIL: $*"; failed=1; }
trap 'rm -rf "$work"' EXIT
validate() { /usr/bin/python3 "$src/agent/tests/validate_jsonl.py" "$src/agent/schemas/$1" "$2"; }

/usr/bin/python3 - "$work/transcripts.jsonl" <<'PY'
import json, sys
system = {"role": "system", "content": "You write Tile DSL kernels."}
task = {"role": "user", "content": "Write add."}
def attempt(sample, rnd, reply, stage, compiled=False, correct=False, limit=None, reasoning="", history=(), task_name="add"):
    row = {"type": "attempt", "task": task_name, "sample": sample, "round": rnd,
           "messages": [system, task if task_name == "add" else {"role": "user", "content": "Write mul."}, *history],
           "reply": reply, "reasoning": reasoning, "finish_reason": "stop", "model": "m", "files": {},
           "stage": stage, "error": "", "feedback": "", "compiled": compiled, "correct": correct,
           "prompt_tokens": 1, "completion_tokens": 1, "seconds": 0.5, "http_attempts": 1}
    if stage == "judged":
        row["verdict"] = {"cases_passed": 1 if correct else 0, "cases_total": 1, "speedup": 1.0,
                          "limit_score": limit or 0.0, "reward": 0.0, "diagnostics": [], "cases": []}
    return json.dumps(row)
repair = [{"role": "assistant", "content": "K0"}, {"role": "user", "content": "The compiler refused the program."}]
lines = [
    attempt(0, 0, "K0", "compile"),                                                  # 1
    "this is not JSON",                                                              # 2
    attempt(0, 1, "K1", "judged", compiled=True, history=repair),                    # 3: wrong
    json.dumps({"type": "attempt", "task": "add"}),                                  # 4: no sample
    attempt(0, 2, "K2", "judged", True, True, 0.5, history=repair),                  # 5: correct, slow
    json.dumps({"type": "sample", "task": "add", "sample": 0}),                      # 6
    attempt(1, 0, "K3", "judged", True, True, 0.8, reasoning="fuse the loads"),      # 7: correct, fast
    attempt(1, 1, "", "transport"),                                                  # 8
    attempt(2, 0, "", "format"),                                                     # 9: empty reply
    attempt(0, 0, "M0", "judged", True, True, 0.9, task_name="mul"),                 # 10
    json.dumps(["attempt"]),                                                         # 11
]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY

# 1. SFT: the three correct attempts, in order, with their conversation; the bad lines reported and skipped.
"$tilecraft" export sft "$work/transcripts.jsonl" -o "$work/sft.jsonl" > "$work/out1" 2> "$work/err1"
status=$?
[ $status -eq 0 ] || fail "export sft exited $status: $(cat "$work/err1")"
t="$work/transcripts.jsonl"
cat > "$work/want_err" <<EOF
warning: $t:2: not JSON (line skipped)
warning: $t:4: attempt with no "sample" (line skipped)
warning: $t:11: not a transcript line (no "type") (line skipped)
EOF
cmp -s "$work/want_err" "$work/err1" || fail "export sft's warnings: $(cat "$work/err1")"
grep -qx "sft: 3 samples from 7 attempts, 3 bad lines skipped -> $work/sft.jsonl" "$work/out1" \
  || fail "export sft's summary: $(cat "$work/out1")"
validate sft_openai_chat.schema.json "$work/sft.jsonl" > "$work/v1" || fail "sft.jsonl is not valid: $(cat "$work/v1")"
/usr/bin/python3 - "$work/sft.jsonl" <<'PY' || failed=1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
def check(ok, what):
    if not ok:
        print(f"FAIL: {what}")
        sys.exit(1)
check(len(rows) == 3, f"3 SFT samples, got {len(rows)}")
slow, fast, mul = (r["messages"] for r in rows)
check([m["role"] for m in slow] == ["system", "user", "assistant", "user", "assistant"], f"the repair's turns {slow}")
check(slow[2] == {"role": "assistant", "content": "K0", "weight": 0}, "the failed attempt's turn has weight 0")
check(slow[-1] == {"role": "assistant", "content": "K2", "weight": 1}, "the verified reply, weight 1")
check(fast[-1]["content"] == "<think>\nfuse the loads\n</think>\n\nK3", f"the reasoning layout: {fast[-1]}")
check(mul[1]["content"] == "Write mul." and mul[-1]["content"] == "M0", "the mul sample")
PY

# 2. Preferences: over add's one first-round prompt, K3 (0.8) > K2 (0.5) > K1 (wrong) > K0 (does not compile);
# the transport attempt and the empty reply are left out; mul has one reply and so no pair.
for format in trl openai; do
  "$tilecraft" export preferences "$work/transcripts.jsonl" -o "$work/$format.jsonl" --format $format \
    > "$work/out_$format" 2> "$work/err_$format"
  status=$?
  [ $status -eq 0 ] || fail "export preferences --format $format exited $status: $(cat "$work/err_$format")"
  cmp -s "$work/want_err" "$work/err_$format" || fail "--format $format's warnings: $(cat "$work/err_$format")"
  grep -qx "preferences: 6 pairs over 2 prompts from 7 attempts, 3 bad lines skipped -> $work/$format.jsonl" \
    "$work/out_$format" || fail "--format $format's summary: $(cat "$work/out_$format")"
  validate preferences_$format.schema.json "$work/$format.jsonl" > "$work/v_$format" \
    || fail "$format.jsonl is not valid: $(cat "$work/v_$format")"
done
/usr/bin/python3 - "$work/trl.jsonl" "$work/openai.jsonl" <<'PY' || failed=1
import json, sys
trl = [json.loads(l) for l in open(sys.argv[1])]
oai = [json.loads(l) for l in open(sys.argv[2])]
pairs = [(r["chosen"][0]["content"], r["rejected"][0]["content"]) for r in trl]
want = [("K1", "K0"), ("K2", "K0"), ("K2", "K1"),
        ("<think>\nfuse the loads\n</think>\n\nK3", "K0"), ("<think>\nfuse the loads\n</think>\n\nK3", "K1"),
        ("<think>\nfuse the loads\n</think>\n\nK3", "K2")]
if pairs != want:
    print(f"FAIL: the TRL pairs {pairs}")
    sys.exit(1)
prompt = [{"role": "system", "content": "You write Tile DSL kernels."}, {"role": "user", "content": "Write add."}]
if any(r["prompt"] != prompt for r in trl):
    print("FAIL: every TRL pair's prompt is add's first-round prompt")
    sys.exit(1)
same = [(r["input"]["messages"], r["preferred_output"], r["non_preferred_output"]) for r in oai]
if same != [(r["prompt"], r["chosen"], r["rejected"]) for r in trl]:
    print("FAIL: the OpenAI pairs are not the TRL pairs")
    sys.exit(1)
PY

# 3. The schemas do reject: a pair whose rejected turn is a user turn, an SFT sample with an unknown field.
head -n 1 "$work/trl.jsonl" | sed 's/"rejected":\[{"content":"\([^"]*\)","role":"assistant"}/"rejected":[{"content":"\1","role":"user"}/' \
  > "$work/broken_trl.jsonl"
grep -q '"role":"user"}]}$' "$work/broken_trl.jsonl" || fail "the broken TRL line was not made: $(cat "$work/broken_trl.jsonl")"
validate preferences_trl.schema.json "$work/broken_trl.jsonl" > "$work/v3" && fail "a broken TRL line validated"
grep -q "broken_trl.jsonl:1: " "$work/v3" || fail "the broken TRL line's report: $(cat "$work/v3")"
head -n 1 "$work/sft.jsonl" | sed 's/^{/{"extra":1,/' > "$work/broken_sft.jsonl"
validate sft_openai_chat.schema.json "$work/broken_sft.jsonl" > "$work/v4" && fail "a broken SFT line validated"
grep -q "broken_sft.jsonl:1: " "$work/v4" || fail "the broken SFT line's report: $(cat "$work/v4")"

# 4. Errors: no such transcripts file (exit 1); an output that cannot be written (exit 1); an unknown format (2).
"$tilecraft" export sft "$work/missing.jsonl" -o "$work/x.jsonl" > /dev/null 2> "$work/err5"
status=$?
[ $status -eq 1 ] && grep -qx "error: $work/missing.jsonl: no such file (transcripts.jsonl from tilecraft agent --out)" \
  "$work/err5" || fail "a missing transcript: exit $status: $(cat "$work/err5")"
"$tilecraft" export sft "$work/transcripts.jsonl" -o "$work/no/such/dir/x.jsonl" > /dev/null 2> "$work/err6"
status=$?
[ $status -eq 1 ] && grep -q "^error: cannot write $work/no/such/dir/x.jsonl.tmp" "$work/err6" \
  || fail "an unwritable output: exit $status: $(cat "$work/err6")"
"$tilecraft" export preferences "$work/transcripts.jsonl" -o "$work/x.jsonl" --format dpo > /dev/null 2> "$work/err7"
status=$?
[ $status -eq 2 ] && grep -q -- "--format" "$work/err7" || fail "an unknown format: exit $status: $(cat "$work/err7")"

[ $failed -eq 0 ] && echo "export cli: all checks passed"
exit $failed
