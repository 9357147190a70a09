#!/bin/sh
# `tilecraft run` compares with the reference interpreter: a right kernel passes with "the outputs match the
# reference". store_col_into_1d.tile was a silent wrong result (an (r, 1) tile stored into a 1-D view, on the
# compiler of 2026-12-01): `run` said PASS for it then; now it runs right and says so only after the comparison.
# --no-check runs it without the comparison. The text of a mismatch (exit 1, the output, its count of wrong
# elements, its first wrong positions) is tested through a fake build service in cli/tests/tile_run_test.cpp:
# no kernel the compiler gets wrong is left to run here. Usage: run_check_test.sh TILECRAFT REPO
set -eu
tilecraft=$1
repo=$2
test_name=run-check
. "$repo/tests/shell/common.sh"

status=0
"$tilecraft" run "$repo/cli/tests/data/store_col_into_1d.tile" --shape M=100 --shape N=33 --seed 1 --no-profile \
  > fixed.txt 2> fixed.err || status=$?
[ "$status" = 0 ] || fail "store_col_into_1d: exit status $status ($(cat fixed.txt fixed.err))"
grep -q '^PASS row_stat_1d: 1 launch, [0-9]* blocks, [0-9]* instructions, all checks passed; the outputs match the reference$' fixed.txt ||
  fail "store_col_into_1d: $(cat fixed.txt)"
grep -q '^    y: matches the reference (100 elements, ' fixed.txt || fail "store_col_into_1d: $(cat fixed.txt)"

"$tilecraft" run "$repo/cli/tests/data/store_col_into_1d.tile" --shape M=100 --shape N=33 --seed 1 --no-profile \
  --no-check > unchecked.txt || fail "--no-check: $(cat unchecked.txt)"
grep -q '^PASS row_stat_1d: 1 launch, [0-9]* blocks, [0-9]* instructions, all checks passed$' unchecked.txt ||
  fail "--no-check: $(cat unchecked.txt)"

"$tilecraft" run "$repo/examples/elementwise/add.tile" --shape N=1000 --no-profile > right.txt ||
  fail "a right kernel: $(cat right.txt)"
grep -q '^PASS add: 1 launch, [0-9]* blocks, [0-9]* instructions, all checks passed; the outputs match the reference$' right.txt ||
  fail "a right kernel: $(cat right.txt)"
grep -q '^    z: matches the reference (1000 elements, max abs error 0, max rel error 0; f16: ' right.txt ||
  fail "a right kernel: $(cat right.txt)"
echo "run check: all checks passed"
