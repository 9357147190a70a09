#!/bin/sh
# Every kind of bad input to `tilecraft run`, `interp` and `emu run` is a usage error (status 2) with its exact
# message, found before anything is built: sizes past int64, folders and devices as inputs, a .npy of the wrong
# shape or one claiming 10^12 elements, an output named as an input, a duplicate or unknown --shape, an output
# folder that is a file, a --timeout that is not a finite positive number of seconds, an unknown command.
# Usage: run_inputs_test.sh TILECRAFT REPO
set -eu
tilecraft=$1
repo=$2
add=$repo/examples/elementwise/add.tile
data=$repo/cli/tests/data
test_name=run-inputs
. "$repo/tests/shell/common.sh"


run() { "$tilecraft" run "$add" --no-profile "$@"; }

expect 2 "error: --shape N=99999999999999999999: 99999999999999999999 is past the largest size, 9223372036854775807" \
  run --shape N=99999999999999999999
expect 2 "error: tensor 'x' would be f16[1000000000000]: more than the 268435456 elements a tensor may have" \
  run --shape N=1000000000000
expect 2 "error: --shape N=-5: a size is a non-negative integer" run --shape N=-5
expect 2 "error: --shape N=32: 'N' is given twice (--shape N=16 and --shape N=32)" run --shape N=16 --shape N=32
expect 2 "error: --shape M=3: the program has no dim 'M' (its dims: N)" run --shape N=16 --shape M=3
expect 2 "error: --attr alpha=1: kernel 'add' has no attribute 'alpha' (its attributes: none)" \
  run --shape N=16 --attr alpha=1

mkdir folder
expect 2 "error: --in x=folder: 'folder' is a folder, not a file" run --shape N=16 --in x=folder
expect 2 "error: --in x=/dev/zero: '/dev/zero' is a device, not a file" run --shape N=16 --in x=/dev/zero
expect 2 "error: --in x=missing.npy: cannot read 'missing.npy': No such file or directory" \
  run --shape N=16 --in x=missing.npy
expect 2 "error: --in 'x' is not NAME=FILE (e.g. --in x=x.npy)" run --shape N=16 --in x
expect 2 "error: --in x=$data/f16_10x100.npy: the file holds f16[10, 100] but tensor 'x' is f16[1000]" \
  run --shape N=1000 --in "x=$data/f16_10x100.npy"
expect 2 "error: --in x=$data/f16_claims_1e12.npy: the file holds f16[1000000000000] but tensor 'x' is f16[1000]" \
  run --shape N=1000 --in "x=$data/f16_claims_1e12.npy"
expect 2 "error: --in z=$data/f16_10x100.npy: 'z' is an output of kernel 'add', not an input (its inputs: x, y)" \
  run --shape N=1000 --in "z=$data/f16_10x100.npy"

touch afile
expect 2 "error: --out-dir afile: 'afile' is a file, not a folder" run --shape N=16 --out-dir afile
expect 2 "error: --keep afile: 'afile' is a file, not a folder" run --shape N=16 --keep afile
expect 2 "error: --keep afile/sub: cannot create the folder 'afile/sub': Not a directory" \
  run --shape N=16 --keep afile/sub

for t in inf nan 1e999; do
  expect 2 "--timeout: '$t' is not a finite number of seconds in (0, 86400]
Run with --help for more information." run --shape N=16 --timeout "$t"
done
for t in 1e10 -1 0; do
  expect 2 "--timeout: $t s is out of range: expected a finite number of seconds in (0, 86400]
Run with --help for more information." run --shape N=16 --timeout "$t"
done
expect 2 "--timeout: 'inf' is not a finite number of seconds in (0, 86400], or 0 for no limit
Run with --help for more information." "$tilecraft" emu run --timeout inf "$data/tiny_add.cpp"
expect 2 "--show: -1 values: expected 0 to 1000000
Run with --help for more information." run --shape N=16 --show -1

# interp: the same parser, its own flag name.
expect 2 "error: --input x=/dev/zero: '/dev/zero' is a device, not a file" \
  "$tilecraft" interp "$add" --shape N=16 --input x=/dev/zero
expect 2 "error: --shape N=99999999999999999999: 99999999999999999999 is past the largest size, 9223372036854775807" \
  "$tilecraft" interp "$add" --shape N=99999999999999999999
expect 2 "error: --out afile: 'afile' is a file, not a folder" "$tilecraft" interp "$add" --shape N=16 --out afile
expect 2 "error: --out afile: 'afile' is a file, not a folder" "$tilecraft" fuzz --count 1 --out afile
for s in -1 99999999999999999999 1e3; do
  expect 2 "--seed: '$s' is not a seed: a whole number from 0 to 18446744073709551615
Run with --help for more information." "$tilecraft" interp "$add" --shape N=16 --seed "$s"
done
expect 2 "--seed: '-1' is not a seed: a whole number from 0 to 18446744073709551615
Run with --help for more information." run --shape N=16 --seed -1
expect 2 "--count: '99999999999999999999' is not a whole number of programs
Run with --help for more information." "$tilecraft" fuzz --count 99999999999999999999
expect 2 "--count: '2000000000' programs: at most 1000000000 per run
Run with --help for more information." "$tilecraft" fuzz --count 2000000000
expect 2 "error: '/dev/zero' is a device, not a file" "$tilecraft" compile /dev/zero

expect 2 "error: unknown command 'nosuch'; run 'tilecraft --help' for the commands" "$tilecraft" nosuch --help
expect 2 "error: unknown command 'nosuch' for 'tilecraft perf'; run 'tilecraft perf --help' for the commands" \
  "$tilecraft" perf nosuch --help
echo "run inputs: all checks passed"
