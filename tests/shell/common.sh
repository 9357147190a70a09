# Sourced by the shell tests (after `set -eu` and `test_name=NAME`): a scratch folder, removed on exit, as the
# current folder; fail; and the two ways a test checks a command's exit status with its stderr.
work=$(mktemp -d "${TMPDIR:-/tmp}/tilecraft-$test_name-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAILED: $*"; exit 1; }

# run_expecting STATUS COMMAND...: the command's stdout in out.txt, stderr in err.txt; it must exit with STATUS.
run_expecting() {
  want_status=$1
  shift
  status=0
  "$@" > out.txt 2> err.txt || status=$?
  [ "$status" = "$want_status" ] || fail "$*: exit status $status, expected $want_status ($(cat err.txt))"
}

# expect STATUS MESSAGE COMMAND...: the command exits with STATUS and prints exactly MESSAGE on stderr.
expect() {
  want=$2
  expect_status=$1
  shift 2
  run_expecting "$expect_status" "$@"
  [ "$(cat err.txt)" = "$want" ] || fail "$*: stderr was '$(cat err.txt)', expected '$want'"
}

# expect_line STATUS LINE COMMAND...: the command exits with STATUS and its stderr holds LINE as a whole line.
expect_line() {
  want=$2
  expect_status=$1
  shift 2
  run_expecting "$expect_status" "$@"
  grep -qxF -- "$want" err.txt || fail "$*: stderr was '$(cat err.txt)', expected the line '$want'"
}
