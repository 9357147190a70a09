# Sourced by the agent's end-to-end tests after they set tilecraft, server and src: a scratch folder $work removed
# on exit, fail() and $failed, an endpoints file naming the scripted server ($work/endpoints.yaml: endpoint `local`,
# model `scripted`, and `other`, model `scripted-other`; one HTTP attempt each), and start_model SCRIPT, which starts the server on SCRIPT
# (llm/tests/start_scripted_server.sh, requests logged in $work/requests.jsonl) and points the endpoint at it, and
# stop_model, which stops it.
work=$(mktemp -d)
failed=0
fail() { echo "FAIL: $*"; failed=1; }
server_pid=
trap '[ -n "$server_pid" ] && kill $server_pid 2>/dev/null; rm -rf "$work"' EXIT
cat > "$work/endpoints.yaml" <<'YAML'
endpoints:
  - name: local
    base_url: http://127.0.0.1:1/v1
    model: scripted
    max_attempts: 1
  - name: other
    base_url: http://127.0.0.1:1/v1
    model: scripted-other
    max_attempts: 1
YAML
. "$src/llm/tests/start_scripted_server.sh"
start_model() {
  start_scripted_server "$server" "$1" "$work/requests.jsonl" "$work"
  export TILECRAFT_LLM_BASE_URL="$base"
}
stop_model() {
  kill $server_pid 2>/dev/null
  wait $server_pid 2>/dev/null
  server_pid=
}
