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

# expect_stderr HOW STATUS MESSAGE COMMAND...: the command exits with STATUS, and its stderr is exactly MESSAGE
# (HOW = exactly) or holds MESSAGE as a whole line (HOW = line).
expect_stderr() {
  how=$1
  expect_status=$2
  want=$3
  shift 3
  run_expecting "$expect_status" "$@"
  case $how in
    exactly) [ "$(cat err.txt)" = "$want" ] || fail "$*: stderr was '$(cat err.txt)', expected '$want'" ;;
    line) grep -qxF -- "$want" err.txt || fail "$*: stderr was '$(cat err.txt)', expected the line '$want'" ;;
  esac
}
expect() { expect_stderr exactly "$@"; }
expect_line() { expect_stderr line "$@"; }
