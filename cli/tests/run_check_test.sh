#!/bin/sh
# `tilecraft run` compares with the reference interpreter: a right kernel passes with "the outputs match the
# reference"; a silently wrong one (store_col_into_1d.tile, wrong on the compiler of 2026-12-01) fails with exit
# status 1, the output's name, its count of wrong elements and its first wrong positions; --no-check runs it
# without the comparison. Usage: run_check_test.sh TILECRAFT REPO
#
# When the (r, 1)-store fix lands, store_col_into_1d.tile runs correctly: then this test fails on its first
# check, and the expectation becomes a PASS (the program stays as the fix's regression test).
set -eu
tilecraft=$1
repo=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/tilecraft-run-check-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAILED: $*"; exit 1; }

status=0
"$tilecraft" run "$repo/cli/tests/data/store_col_into_1d.tile" --shape M=100 --shape N=33 --seed 1 --no-profile \
  > wrong.txt 2> wrong.err || status=$?
[ "$status" = 1 ] || fail "a wrong kernel: exit status $status ($(cat wrong.txt wrong.err))"
grep -q '^FAIL row_stat_1d: an output differs from the reference: y: [0-9]* of 100 elements wrong, max abs error [0-9.e+-]*, max rel error [0-9.e+-]*$' wrong.txt ||
  fail "a wrong kernel: $(cat wrong.txt)"
grep -q '^    y\[[0-9]*\]: got [^,]*, want [0-9.e+-]*$' wrong.txt || fail "no wrong position: $(cat wrong.txt)"
grep -q "^    the emulator's checks passed (1 launch, " wrong.txt || fail "no emulator verdict: $(cat wrong.txt)"
[ ! -s wrong.err ] || fail "a wrong kernel printed on stderr: $(cat wrong.err)"

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
