#!/bin/sh
# `tilecraft import` end to end through the command: exact output and exit status of each form, the skip on a
# rerun, --force, the task check of what it wrote, and the usage errors. Usage: import_cli_test.sh TILECRAFT SRC
set -u
T=$1
DATA=$2/harness/tests/data/import
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$DATA" || exit 1
fails=0

# check NAME STATUS EXPECTED-FILE COMMAND...: stdout and stderr together, the temporary folder written as TMP.
check() {
  name=$1 want_status=$2 want=$3
  shift 3
  "$@" >"$TMP/got" 2>&1
  status=$?
  sed "s|$TMP|TMP|g" "$TMP/got" >"$TMP/got.clean"
  if [ "$status" != "$want_status" ] || ! diff -u "$want" "$TMP/got.clean"; then
    echo "FAIL $name: exit status $status (want $want_status)"
    fails=$((fails + 1))
  fi
}

cat >"$TMP/want" <<'X'
imported kernelbench/level1/1_Scaled_ReLU.py -> TMP/out/level1/1_scaled_relu: 3 cases
imported kernelbench/level2/2_Linear_Bias_Sigmoid.py -> TMP/out/level2/2_linear_bias_sigmoid: 3 cases
imported kernelbench/level2/3_Argmax_Over_Dim.py -> TMP/out/level2/3_argmax_over_dim: 3 cases
3 imported (9 cases), 0 skipped, 0 not imported
X
check imported 0 "$TMP/want" "$T" import kernelbench kernelbench/level1 kernelbench/level2 --out "$TMP/out"

cat >"$TMP/want" <<'X'
kernelbench/bad/inputs_raise.py: error: not imported: get_inputs() raised ValueError: no shapes for you
skipped kernelbench/level1/1_Scaled_ReLU.py: already imported in TMP/out/level1/1_scaled_relu (--force imports it again)
kernelbench/bad/no_model.py: error: not imported: the file defines no class Model(nn.Module)
0 imported (0 cases), 1 skipped, 2 not imported
X
check failures_and_skip 1 "$TMP/want" "$T" import kernelbench kernelbench/level1/1_Scaled_ReLU.py \
  kernelbench/bad/no_model.py kernelbench/bad/inputs_raise.py --out "$TMP/out"

cat >"$TMP/want" <<'X'
imported kernelbench/level1/1_Scaled_ReLU.py -> TMP/out/level1/1_scaled_relu: 3 cases
1 imported (3 cases), 0 skipped, 0 not imported
X
check force 0 "$TMP/want" "$T" import kernelbench kernelbench/level1/1_Scaled_ReLU.py --out "$TMP/out" --force

cat >"$TMP/want" <<'X'
imported multikernelbench/reference/activation/leaky_relu.py -> TMP/out/activation/leaky_relu: 3 cases
imported multikernelbench/reference/index/gather.py -> TMP/out/index/gather: 3 cases
imported multikernelbench/reference/math/cat_rows.py -> TMP/out/math/cat_rows: 3 cases
imported multikernelbench/reference/normalization/layer_norm.py -> TMP/out/normalization/layer_norm: 3 cases
4 imported (12 cases), 0 skipped, 0 not imported
X
check multikernelbench 0 "$TMP/want" "$T" import kernelbench --multikernelbench multikernelbench/reference \
  --out "$TMP/out"

cat >"$TMP/want" <<'X'
imported npukernelbench/tasks/level1/Math/Sqrt -> TMP/out/level1/sqrt: 3 cases
npukernelbench/tasks/level2/Norm/BadCsv: error: not imported: validation/test_cases.csv:2: 4 cells, the header has 3
npukernelbench/tasks/level2/Norm/NoPrepare: error: not imported: missing validation/prepare_inputs.py (an NPUKernelBench task has api_desc.md, validation/module.py, validation/prepare_inputs.py and validation/test_cases.csv)
imported npukernelbench/tasks/level2/Norm/RmsNorm -> TMP/out/level2/rms_norm: 2 cases
  note: no answer/0/: no reference solution kept
2 imported (5 cases), 0 skipped, 2 not imported
X
check npukernelbench 1 "$TMP/want" "$T" import npukernelbench npukernelbench/tasks --out "$TMP/out" \
  --solutions "$TMP/solutions"
[ -f "$TMP/solutions/sqrt/op_kernel/sqrt.cpp" ] || { echo "FAIL npukernelbench: answer/0 not kept"; fails=$((fails + 1)); }

echo "9 tasks, 26 cases, 0 errors" >"$TMP/want"
check task_check 0 "$TMP/want" "$T" task check "$TMP/out"

echo "error: nope.py: no such file or folder" >"$TMP/want"
check no_such_file 2 "$TMP/want" "$T" import kernelbench nope.py --out "$TMP/out"
echo "error: npukernelbench/tasks/level1/Math/Sqrt/api_desc.md: not a .py file (a KernelBench task is one Python file)" >"$TMP/want"
check not_python 2 "$TMP/want" "$T" import kernelbench npukernelbench/tasks/level1/Math/Sqrt/api_desc.md --out "$TMP/out"
echo "error: kernelbench/level1/1_Scaled_ReLU.py: not a folder (give an NPUKernelBench task folder or a folder above task folders)" >"$TMP/want"
check npu_not_folder 2 "$TMP/want" "$T" import npukernelbench kernelbench/level1/1_Scaled_ReLU.py --out "$TMP/out"
echo "error: kernelbench/level1/1_Scaled_ReLU.py: not a folder (--multikernelbench takes MultiKernelBench's reference/ folder or one of its category folders)" >"$TMP/want"
check mkb_not_folder 2 "$TMP/want" "$T" import kernelbench --multikernelbench kernelbench/level1/1_Scaled_ReLU.py --out "$TMP/out"
echo "error: kernelbench: no NPUKernelBench task in this folder" >"$TMP/want"
check no_task 2 "$TMP/want" "$T" import npukernelbench kernelbench --out "$TMP/out"
echo "error: cannot start the sandbox: bubblewrap (bwrap) is not installed; install the Debian package 'bubblewrap' (import runs the upstream files only inside it)" >"$TMP/want"
check no_bwrap 2 "$TMP/want" env PATH=/nonexistent "$T" import kernelbench kernelbench/level1 --out "$TMP/out2"

if [ "$fails" = 0 ]; then echo "import cli: all checks passed"; fi
