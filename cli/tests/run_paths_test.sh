#!/bin/sh
# `tilecraft run`: --in with a path relative to the caller's folder, --range, --out-dir, the profile from the
# sandboxed run's trace, --no-sandbox, and the
# exact messages of a missing --in file and a bad --range. Usage: run_paths_test.sh TILECRAFT REPO
set -eu
tilecraft=$1
add=$2/examples/elementwise/add.tile
test_name=run-paths
. "$2/tests/shell/common.sh"

# Generated inputs in [2, 3): every z = x + y lies in [4, 6).
"$tilecraft" run "$add" --shape N=16 --no-profile --range 2,3 --out-dir out --show 16 > ranged.txt
grep -q '^PASS add: ' ranged.txt || fail "ranged run: $(cat ranged.txt)"
values=$(sed -n 's/.*first //p' ranged.txt)
for v in $values; do
  awk -v v="$v" 'BEGIN { exit !(v >= 4 && v < 6) }' || fail "value $v outside [4, 6) with --range 2,3"
done
[ -f out/z.npy ] || fail "no out/z.npy"

# The output as both inputs, by a relative path: z' = 2 z.
# With the profile: the sandboxed run's trace (workDir/trace.jsonl) reaches the performance model.
"$tilecraft" run "$add" --shape N=16 --in x=out/z.npy --in y=./out/../out/z.npy --show 1 > twice.txt
grep -q '^PASS add: ' twice.txt || fail "relative --in: $(cat twice.txt)"
grep -q '^    launch 1 add on 910b2: ' twice.txt || fail "no profile: $(cat twice.txt)"
first=$(echo "$values" | cut -d' ' -f1)
got=$(sed -n 's/.*first //p' twice.txt)
awk -v a="$first" -v b="$got" 'BEGIN { exit !(b == 2 * a) }' || fail "relative --in: $got is not 2 x $first"

# Without the sandbox, the same program gives the same values.
"$tilecraft" run "$add" --shape N=16 --no-profile --range 2,3 --show 16 --no-sandbox > plain.txt
[ "$(sed -n 's/.*first //p' plain.txt)" = "$values" ] || fail "--no-sandbox gave other values"

status=0
"$tilecraft" run "$add" --shape N=16 --no-profile --in x=missing.npy 2> missing.txt || status=$?
[ "$status" = 2 ] || fail "missing --in file: exit status $status"
[ "$(cat missing.txt)" = "error: --in x=missing.npy: cannot read 'missing.npy': No such file or directory" ] ||
  fail "missing --in file: $(cat missing.txt)"
status=0
"$tilecraft" run "$add" --shape N=16 --range 3,1 2> range.txt || status=$?
[ "$status" = 2 ] || fail "bad --range: exit status $status"
[ "$(head -1 range.txt)" = "--range: '3,1': LO must be below HI (e.g. --range -2,2)" ] || fail "bad --range: $(cat range.txt)"
"$tilecraft" run "$add" --shape N=16 --range 1,x 2> range.txt || true
[ "$(head -1 range.txt)" = "--range: '1,x' is not LO,HI (two finite numbers, e.g. --range -2,2)" ] ||
  fail "bad --range: $(cat range.txt)"
status=0
"$tilecraft" run "$add" --shape N=16 --no-profile --in x 2> badin.txt || status=$?
[ "$status" = 2 ] || fail "--in without =: exit status $status"
[ "$(cat badin.txt)" = "error: --in 'x' is not NAME=FILE (e.g. --in x=x.npy)" ] || fail "--in without =: $(cat badin.txt)"

# An output folder that is a file: refused before anything is built, and the kept folder is not touched.
touch notadir
status=0
"$tilecraft" run "$add" --shape N=16 --no-profile --out-dir notadir --keep unkept 2> notadir.txt || status=$?
[ "$status" = 2 ] || fail "--out-dir naming a file: exit status $status"
[ "$(cat notadir.txt)" = "error: --out-dir notadir: 'notadir' is a file, not a folder" ] ||
  fail "--out-dir naming a file: $(cat notadir.txt)"
[ ! -e unkept ] || fail "--out-dir naming a file: the --keep folder was made"

# --keep keeps the program; --out-dir gets whole files (written through a temporary and a rename).
"$tilecraft" run "$add" --shape N=16 --no-profile --out-dir kept-out --keep kept > kept.txt || fail "--keep: $(cat kept.txt)"
[ -x kept/add ] || fail "--keep: no kept/add"
[ -f kept-out/z.npy ] && [ ! -e kept-out/z.npy.tmp ] || fail "--out-dir: $(ls kept-out)"

# The launcher's own --range check (the kept program, run by hand).
status=0
kept/add N=16 --range 5,1 2> launcher.txt > /dev/null || status=$?
[ "$status" = 2 ] || fail "launcher --range 5,1: exit status $status"
[ "$(cat launcher.txt)" = "error: --range takes LO,HI with LO < HI, got '5,1'" ] || fail "launcher: $(cat launcher.txt)"
echo "run paths: all checks passed"
