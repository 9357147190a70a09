#!/bin/sh
# Generic programs on the command line (docs/cli.md --param, docs/language.md "Generic programs"): compile checks
# every instantiation, interp and run take one (--param), and a (..., M, N) tensor takes .npy inputs of any rank
# at least its own, its outputs written in the input's shape. Every message with its exit status.
# Usage: generic_test.sh TILECRAFT REPO
set -eu
tilecraft=$1
repo=$2
tile=$repo/cli/tests/data/generic_rows.tile
test_name=generic
. "$repo/tests/shell/common.sh"

# compile: both instantiations checked and printed.
"$tilecraft" compile "$tile" > ast.txt || fail "compile of the generic program"
[ "$(grep -c '^# instantiation' ast.txt)" = 2 ] || fail "compile printed $(grep -c '^# instantiation' ast.txt) instantiations"
grep -qx '# instantiation T=f32' ast.txt || fail "no T=f32 instantiation in $(head -3 ast.txt)"
expect_line 2 "error: $tile has 2 instantiations and this command runs one: bind T (f16, f32) with --param NAME=VALUE" \
  "$tilecraft" compile "$tile" --emit=ascendc
"$tilecraft" compile "$tile" --emit=ascendc --param T=f32 > k.cpp || fail "compile --emit=ascendc --param T=f32"
grep -q 'float' k.cpp || fail "the f32 instantiation's source has no float"
expect_line 1 "$tile:3:1: error: T=bf16 is not one of the choices of 'T' (f16, f32)" \
  "$tilecraft" compile "$tile" --param T=bf16
expect_line 2 "error: --param X=1: the program declares no parameter 'X' (its parameters: T)" \
  "$tilecraft" compile "$tile" --param X=1

# interp: one instantiation; inputs of rank 3 for (..., M, N), outputs in that shape.
/usr/bin/python3 -c "
import numpy as np
np.save('x3.npy', np.arange(48, dtype=np.float32).reshape(2, 3, 8) / 10)
np.save('x1.npy', np.arange(8, dtype=np.float32))
np.save('x44.npy', np.zeros((2, 4, 8), dtype=np.float32))
"
expect_line 2 "error: the program has 2 instantiations and this command runs one: bind T (f16, f32) with --param NAME=VALUE" \
  "$tilecraft" interp "$tile" --shape M=6 --shape N=8
expect_line 1 "$tile:3:1: error: T=i8 is not one of the choices of 'T' (f16, f32)" \
  "$tilecraft" interp "$tile" --param T=i8 --shape M=6 --shape N=8
mkdir out
"$tilecraft" interp "$tile" --param T=f32 --shape M=6 --shape N=8 --input x=x3.npy --out out > interp.txt 2> err.txt \
  || fail "interp of a rank-3 input: $(cat err.txt)"
grep -q '^output y f32\[2, 3, 8\] min 0 max 9.4 ' interp.txt || fail "interp printed $(cat interp.txt)"
/usr/bin/python3 -c "
import numpy as np
y = np.load('out/y.npy')
assert y.shape == (2, 3, 8), y.shape
assert np.allclose(y, np.arange(48, dtype=np.float32).reshape(2, 3, 8) / 5), y
" || fail "out/y.npy is not 2 * x in x's shape"
expect_line 2 "error: --input x=x1.npy: the file holds f32[8] but tensor 'x' (f32[6, 8]) takes rank 2 or more (its leading dimensions fold into the first)" \
  "$tilecraft" interp "$tile" --param T=f32 --shape M=6 --shape N=8 --input x=x1.npy
expect_line 2 "error: --input x=x44.npy: the file holds f32[2, 4, 8], which folds to f32[8, 8], but tensor 'x' is f32[6, 8]" \
  "$tilecraft" interp "$tile" --param T=f32 --shape M=6 --shape N=8 --input x=x44.npy

# run: the f16 instantiation on the emulator, checked against the reference; a rank-3 input for the f32 one.
expect_line 2 "error: $tile has 2 instantiations and this command runs one: bind T (f16, f32) with --param NAME=VALUE" \
  "$tilecraft" run "$tile" --shape M=6 --shape N=8 --no-profile
"$tilecraft" run "$tile" --param T=f16 --shape M=37 --shape N=100 --no-profile > run.txt 2> err.txt \
  || fail "run --param T=f16: $(cat err.txt) $(cat run.txt)"
grep -q 'PASS' run.txt || fail "run --param T=f16 printed $(cat run.txt)"
mkdir runout
"$tilecraft" run "$tile" --param T=f32 --shape M=6 --shape N=8 --in x=x3.npy --out-dir runout --no-profile \
  > run.txt 2> err.txt || fail "run --param T=f32 with a rank-3 input: $(cat err.txt) $(cat run.txt)"
/usr/bin/python3 -c "
import numpy as np
y = np.load('runout/y.npy')
assert y.shape == (2, 3, 8), y.shape
assert np.allclose(y, np.arange(48, dtype=np.float32).reshape(2, 3, 8) / 5), y
" || fail "runout/y.npy is not 2 * x in x's shape"
echo "generic: all checks passed"
