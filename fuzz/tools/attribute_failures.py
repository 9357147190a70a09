#!/usr/bin/python3
# Attributes each failure of a `tilecraft fuzz --emulate` run to one of issue 10's repro bugs, by its stage, its
# first message and the patterns of its program (docs/fuzzing.md, "Compiler patterns"), and prints, per bug, the first
# seed that hit it and how many programs did.
#   build/cli/tilecraft fuzz --emulate [--patterns] --seed 1 --count 300 2> err.txt
#   fuzz/tools/attribute_failures.py build/cli/tilecraft [--patterns] < err.txt
import re
import subprocess
import sys

tilecraft, mix = sys.argv[1], sys.argv[2:]
fails, current = [], None
for line in sys.stdin:
    m = re.match(r'FAIL seed (\d+) \((\w+)(?:: ([^)]*))?\) (\w+) \[[^]]*\]: (.*?) \| replay', line)
    if m:
        current = dict(seed=int(m[1]), family=m[2], patterns=(m[3] or '').split(', '), stage=m[4], message=m[5],
                       detail='')
        fails.append(current)
    elif current and line.startswith('    ') and not current['detail']:
        current['detail'] = line.strip()


def io_dtype(seed):
    text = subprocess.run([tilecraft, 'fuzz', '--seed', str(seed), '--count', '1'] + mix, capture_output=True,
                          text=True).stdout
    return re.search(r'y: Tensor\[(\w+)', text)[1]


def bug(f):
    stage, detail, message, patterns = f['stage'], f['detail'], f['message'], f['patterns']
    if stage == 'run' and 'out of bounds' in detail and f['family'] == 'chunks':
        return 'slice_past_end_not_padded'
    if stage == 'run' and 'cross-pipe hazard: GetValue on pipe S' in detail:
        return 'cast_then_gather_hazard'
    if stage == 'run' and 'UB overflow' in detail:
        # The two repros differ in their dtypes: bf16 with casts, or f32 with two compute blocks.
        return 'ub_overflow_bf16_buffers1' if io_dtype(f['seed']) != 'f32' else 'ub_overflow_f32_two_compute'
    if stage == 'compare' and 'store-col-into-1d' in patterns and re.match(r'[zs]:', message):
        return 'store_col_into_1d'
    if stage == 'compare' and 'store-row-into-1d' in patterns and message.startswith('z:'):
        return 'store_row_into_1d'
    if stage == 'compile' and 'float powers computed in the kernel' in message:
        return 'device_pow_float (refused at lowering)'
    return 'other: %s %s' % (stage, (detail or message)[:100])


first, count = {}, {}
for f in fails:
    b = bug(f)
    count[b] = count.get(b, 0) + 1
    first.setdefault(b, f['seed'])
for b in sorted(first, key=lambda b: first[b]):
    print('%-42s first seed %5d, %4d programs' % (b, first[b], count[b]))
