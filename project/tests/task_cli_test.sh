#!/bin/sh
# `tilecraft project run DIR --task TASK`: each usage error's exact message and status 2, then a real run of the
# hand-written add project on two cases of tasks/level1/add (built, run in the sandbox, judged against golden.py).
# Usage: task_cli_test.sh TILECRAFT SOURCE_DIR
tc=$1
src=$2
project=$src/harness/tests/data/ascendc/add
task=$src/tasks/level1/add
failures=0
expect() {  # expect STATUS MESSAGE -- ARGS...
  want_status=$1
  want=$2
  shift 3
  got=$("$tc" project run "$@" 2>&1)
  status=$?
  if [ "$status" -ne "$want_status" ] || [ "$got" != "$want" ]; then
    echo "FAILED: tilecraft project run $*"
    echo "  status $status (want $want_status)"
    echo "  got:  $got"
    echo "  want: $want"
    failures=$((failures + 1))
  fi
}
cd "$src" || exit 1
expect 2 "error: --task takes the inputs, attributes and goldens from the task's cases: drop --in, --expect, --attr and --out" \
  -- harness/tests/data/ascendc/add --task tasks/level1/add --in x=a.npy
expect 2 "error: --case 99: task add has no such case (tasks/level1/add has 8 cases)" \
  -- harness/tests/data/ascendc/add --task tasks/level1/add --case 99
expect 2 "error: --rule exact: expected cann or allclose" \
  -- harness/tests/data/ascendc/add --task tasks/level1/add --rule exact
expect 2 "error: no/such/project: no such folder" -- no/such/project --task tasks/level1/add
out=$("$tc" project run harness/tests/data/ascendc/add --task tasks/level1/add --case 1 --case 3 2>&1)
status=$?
echo "$out"
if [ "$status" -ne 0 ] || ! echo "$out" | grep -q "^PASS 2 of 2 cases of add$"; then
  echo "FAILED: the add project on cases 1 and 3 (status $status)"
  failures=$((failures + 1))
fi
if [ "$failures" -eq 0 ]; then echo "project task cli: all checks passed"; fi
