#!/bin/sh
# `tilecraft llm chat` end to end against scripted_llm_server on loopback: a plain reply, a cut stream retried
# with --json, a 401, a missing key variable, an unknown endpoint, a bad config row, the environment overrides.
# Usage: llm_chat_cli_test.sh TILECRAFT SCRIPTED_LLM_SERVER DATA_DIR
set -u
tilecraft=$1
server=$2
data=$3
work=$(mktemp -d)
failed=0
fail() { echo "FAIL: $*"; failed=1; }

server_pid=
trap '[ -n "$server_pid" ] && kill $server_pid 2>/dev/null; rm -rf "$work"' EXIT
. "$(dirname "$0")/start_scripted_server.sh"
start_scripted_server "$server" "$data/chat_script.jsonl" "$work/requests.jsonl" "$work"
export TILECRAFT_LLM_BASE_URL="$base" LLM_TEST_KEY=sk-cli-test
unset LLM_TEST_UNSET_KEY TILECRAFT_LLM_MODEL TILECRAFT_LLM_API_KEY_ENV

# 1. The reply's text on stdout, intact.
"$tilecraft" llm chat --config "$data/endpoints.yaml" --endpoint local "write add" > "$work/out1" 2> "$work/err1"
status=$?
[ $status -eq 0 ] || fail "plain chat exited $status: $(cat "$work/err1")"
printf 'Here is the kernel.\n\n```tile\nkernel add(x: f16[N]) -> f16[N] { return x }\n```\n\nDone.\n' > "$work/want1"
cmp -s "$work/out1" "$work/want1" || fail "plain chat printed: $(cat "$work/out1")"

# 2. --stream --json: the cut stream is retried, the reply has its reasoning, usage and accounting.
"$tilecraft" llm chat --config "$data/endpoints.yaml" --endpoint local --stream --json "think" > "$work/out2" 2> "$work/err2"
status=$?
[ $status -eq 0 ] || fail "streamed chat exited $status: $(cat "$work/err2")"
/usr/bin/python3 - "$work/out2" <<'PY' || failed=1
import json, sys
r = json.load(open(sys.argv[1]))
want = {"choices": [{"content": "streamed answer", "reasoning": "thinking it over", "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7}, "attempts": 2, "stream": True}
for key, value in want.items():
    if r.get(key) != value:
        print(f"FAIL: --json {key} = {r.get(key)!r}, want {value!r}")
        sys.exit(1)
a = r["accounting"]
if (a["calls"], a["requests"], a["retries"], a["prompt_tokens"]) != (1, 2, 1, 11):
    print(f"FAIL: --json accounting = {a!r}")
    sys.exit(1)
PY

# 3. A 401: not retried, the message names the key's variable, exit 1.
"$tilecraft" llm chat --config "$data/endpoints.yaml" --endpoint local "hi" > /dev/null 2> "$work/err3"
status=$?
[ $status -eq 1 ] || fail "401 exited $status"
want="error: endpoint 'local': HTTP 401 Unauthorized invalid_api_key from $base/chat/completions: Incorrect API key provided; the server refused the API key from \$LLM_TEST_KEY: check it (not retried)"
[ "$(cat "$work/err3")" = "$want" ] || fail "401 said: $(cat "$work/err3")"

# 4. The model from the environment, and the key, reach the server (request 5 in its log).
TILECRAFT_LLM_MODEL=env-model "$tilecraft" llm chat --config "$data/endpoints.yaml" --endpoint local "hi" > /dev/null 2>&1 \
  || fail "chat with TILECRAFT_LLM_MODEL failed"
/usr/bin/python3 - "$work/requests.jsonl" <<'PY' || failed=1
import json, sys
log = [json.loads(line) for line in open(sys.argv[1])]
if len(log) != 5:
    print(f"FAIL: the server got {len(log)} requests, want 5"); sys.exit(1)
if log[4]["body"]["model"] != "env-model" or log[0]["body"]["model"] != "scripted-model":
    print(f"FAIL: models sent: {log[0]['body']['model']!r}, {log[4]['body']['model']!r}"); sys.exit(1)
if any(entry["authorization"] != "Bearer sk-cli-test" for entry in log):
    print("FAIL: a request without the bearer key"); sys.exit(1)
if log[0]["body"]["temperature"] != 0.1:
    print("FAIL: the endpoint's temperature was not sent"); sys.exit(1)
PY

# 5. Configuration errors: exit 2 and nothing sent.
"$tilecraft" llm chat --config "$data/endpoints.yaml" --endpoint nokey "hi" > /dev/null 2> "$work/err5"
status=$?
[ $status -eq 2 ] || fail "missing key exited $status"
want="error: endpoint 'nokey' ($data/endpoints.yaml:9): the API key variable LLM_TEST_UNSET_KEY is not set; export LLM_TEST_UNSET_KEY=<your key>, or point api_key_env (or TILECRAFT_LLM_API_KEY_ENV) at the variable that holds it"
[ "$(cat "$work/err5")" = "$want" ] || fail "missing key said: $(cat "$work/err5")"

"$tilecraft" llm chat --config "$data/endpoints.yaml" --endpoint nosuch "hi" > /dev/null 2> "$work/err6"
status=$?
[ $status -eq 2 ] || fail "unknown endpoint exited $status"
want="error: --endpoint nosuch: no such endpoint in $data/endpoints.yaml; it has: local, nokey"
[ "$(cat "$work/err6")" = "$want" ] || fail "unknown endpoint said: $(cat "$work/err6")"

"$tilecraft" llm chat --config "$data/bad_endpoints.yaml" --endpoint local "hi" > /dev/null 2> "$work/err7"
status=$?
[ $status -eq 2 ] || fail "bad config exited $status"
want="error: $data/bad_endpoints.yaml:5: endpoint 'local': max_in_flight 'many' is not a whole number from 1 to 256"
[ "$(cat "$work/err7")" = "$want" ] || fail "bad config said: $(cat "$work/err7")"

TILECRAFT_LLM_BASE_URL=127.0.0.1:8000 "$tilecraft" llm chat --config "$data/endpoints.yaml" --endpoint local "hi" > /dev/null 2> "$work/err8"
status=$?
[ $status -eq 2 ] || fail "bad base URL exited $status"
want="error: endpoint 'local': base_url '127.0.0.1:8000' (from TILECRAFT_LLM_BASE_URL) is not http://HOST[:PORT]/PATH or https://...; e.g. http://127.0.0.1:8000/v1"
[ "$(cat "$work/err8")" = "$want" ] || fail "bad base URL said: $(cat "$work/err8")"

[ "$(wc -l < "$work/requests.jsonl")" -eq 5 ] || fail "configuration errors sent requests"
[ $failed -eq 0 ] && echo "llm chat: all checks passed"
exit $failed
