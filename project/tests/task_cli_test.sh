#!/bin/sh
# `tilecraft project run DIR --task TASK`: each usage error's exact message and status 2, then a real run of the
# hand-written add project on two cases of tasks/level1/add (built, run in the sandbox, judged against golden.py),
# and the same project as a MultiKernelBench submission.
# Usage: task_cli_test.sh TILECRAFT SOURCE_DIR
tc=$1
src=$2
project=$src/examples/ascendc/add_custom
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
  -- examples/ascendc/add_custom --task tasks/level1/add --in x=a.npy
expect 2 "error: --case 99: task add has no such case (tasks/level1/add has 8 cases)" \
  -- examples/ascendc/add_custom --task tasks/level1/add --case 99
expect 2 "error: --rule exact: expected cann or allclose" \
  -- examples/ascendc/add_custom --task tasks/level1/add --rule exact
expect 2 "error: no/such/project: no such folder" -- no/such/project --task tasks/level1/add
out=$("$tc" project run examples/ascendc/add_custom --task tasks/level1/add --case 1 --case 3 2>&1)
status=$?
echo "$out"
if [ "$status" -ne 0 ] || ! echo "$out" | grep -q "^PASS 2 of 2 cases of add$"; then
  echo "FAILED: the add project on cases 1 and 3 (status $status)"
  failures=$((failures + 1))
fi
# The same project as a MultiKernelBench submission (six strings in one .py): `project pack` writes it,
# `project unpack` gives back the very files, `project run FILE.py --task` judges it, and the usage errors.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sub=$scratch/add_custom.py
out=$("$tc" project pack "$project" --out "$sub" 2>&1)
status=$?
if [ "$status" -ne 0 ] || [ "$out" != "$sub: the submission of $project" ]; then
  echo "FAILED: project pack (status $status): $out"
  failures=$((failures + 1))
fi
out=$("$tc" project unpack "$sub" --out "$scratch/unpacked" 2>&1)
status=$?
if [ "$status" -ne 0 ] || [ "$out" != "$sub: the project is in $scratch/unpacked (kernel $scratch/unpacked/op_kernel/add_custom.cpp)" ]; then
  echo "FAILED: project unpack (status $status): $out"
  failures=$((failures + 1))
fi
if ! diff -r "$project" "$scratch/unpacked" >/dev/null; then
  echo "FAILED: project unpack of the packed project differs from it: $(diff -r "$project" "$scratch/unpacked" | head -5)"
  failures=$((failures + 1))
fi
out=$("$tc" project run "$sub" --task tasks/level1/add --case 1 2>&1)
status=$?
echo "$out"
if [ "$status" -ne 0 ] || ! echo "$out" | grep -q "^PASS 1 of 1 cases of add$"; then
  echo "FAILED: the add submission on case 1 (status $status)"
  failures=$((failures + 1))
fi
printf 'x = 1\nkernel_src = """\n' >"$scratch/broken.py"
expect 2 "$scratch/broken.py:2:14: error: this string is not closed (no closing triple quote before the end of the file)" \
  -- "$scratch/broken.py" --task tasks/level1/add
printf 'x = 1\n' >"$scratch/none.py"
out=$("$tc" project unpack "$scratch/none.py" --out "$scratch/none" 2>&1)
status=$?
want="$scratch/none.py: error: the submission defines no project_json_src, host_tiling_src, host_operator_src, kernel_src
hint: a MultiKernelBench AscendC submission defines six strings: project_json_src, host_tiling_src, host_operator_src, kernel_src, python_bind_src, model_src"
if [ "$status" -ne 2 ] || [ "$out" != "$want" ]; then
  echo "FAILED: project unpack of a file that is not a submission (status $status): $out"
  failures=$((failures + 1))
fi
out=$("$tc" project pack tasks/level1/add --out "$scratch/x.py" 2>&1)
status=$?
if [ "$status" -ne 2 ] || [ "$out" != "error: tasks/level1/add: 0 op description (.json) files; a project to pack has one, msopgen's (its \"op\" names the sources)" ]; then
  echo "FAILED: project pack of a folder that is not a project (status $status): $out"
  failures=$((failures + 1))
fi
if [ "$failures" -eq 0 ]; then echo "project task cli: all checks passed"; fi
