# Sourced by the end-to-end tests that talk to a scripted model: starts scripted_llm_server on loopback and waits
# (up to 30 s: machines running the test suite are loaded) for its "listening on URL" line.
# start_scripted_server SERVER SCRIPT LOG WORK: sets server_pid and base (the URL, up to /v1); exits 1 when the
# server does not start. The caller's trap kills $server_pid.
start_scripted_server() {
  "$1" --script "$2" --log "$3" > "$4/server.out" 2> "$4/server.err" &
  server_pid=$!
  for _ in $(seq 600); do
    grep -q listening "$4/server.out" 2>/dev/null && break
    sleep 0.05
  done
  base=$(sed -n 's/^listening on \(http:.*\)$/\1/p' "$4/server.out")
  [ -n "$base" ] || { echo "FAIL: the scripted server did not start: $(cat "$4/server.err")"; exit 1; }
}
