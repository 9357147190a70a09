#!/usr/bin/env bash
# Runs each libFuzzer target for a fixed time (docs/fuzzing.md). `make fuzz` and `make fuzz-long` call it.
#   run.sh BUILD_DIR SECONDS TARGET...      (TARGET: frontend, npy, csv)
# The committed reproducers (fuzz/corpus/regressions/TARGET) run first, once each: one that still fails is
# reported (fuzz/FINDINGS.md says which are pending) and fails the run, but the fuzzing goes on from the seeds
# without it, so that a known bug does not hide new ones. Each target's working corpus lives in BUILD_DIR/fuzz-corpus/TARGET (it grows from run to run); the seeds are
# gathered from the repository into BUILD_DIR/fuzz-seeds/TARGET first. A crash is written to
# BUILD_DIR/fuzz-artifacts/TARGET-crash-<sha1> (replay: BUILD_DIR/fuzz/libfuzzer/fuzz_TARGET THAT_FILE).
# FUZZ_FLAGS adds libFuzzer flags, e.g. FUZZ_FLAGS="-fork=2 -ignore_crashes=1" to go on past a crash.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=$1 seconds=$2
shift 2
seeds() {
  local target=$1 dir=$build/fuzz-seeds/$1
  rm -rf "$dir" && mkdir -p "$dir"
  case $target in
    frontend) files=$(git ls-files 'examples/*.tile' 'solutions/*.tile' 'dsl/tests/diagnostics/*.tile') ;;
    npy) files=$(git ls-files '*.npy' | grep -v '^fuzz/corpus/regressions/') ;;
    csv) files=$(git ls-files 'tasks/*cases.csv') ;;
  esac
  for f in $files; do cp "$f" "$dir/$(echo "$f" | tr / _)"; done
}
status=0
for target in "$@"; do
  bin=$build/fuzz/libfuzzer/fuzz_$target
  corpus=$build/fuzz-corpus/$target
  mkdir -p "$corpus" "$build/fuzz-artifacts"
  seeds "$target"
  extra=()
  if [ "$target" = frontend ]; then extra=(-dict=fuzz/libfuzzer/tile.dict -max_len=8192); fi
  mkdir -p "$build/fuzz-artifacts"
  regressions=fuzz/corpus/regressions/$target
  if [ -d "$regressions" ]; then
    if "$bin" -runs=0 -artifact_prefix="$build/fuzz-artifacts/$target-regression-" "$regressions" \
      >"$build/fuzz-$target-regressions.log" 2>&1; then
      echo "fuzz: $target: the $(ls "$regressions" | wc -l) reproducers in $regressions pass"
    else
      status=1
      echo "fuzz: $target: a reproducer in $regressions still fails (fuzz/FINDINGS.md); the log is" \
        "$build/fuzz-$target-regressions.log:"
      grep -E "^(Running: |SUMMARY)" "$build/fuzz-$target-regressions.log" | tail -2
    fi
  fi
  echo "fuzz: $target for ${seconds}s (corpus $corpus, seeds $build/fuzz-seeds/$target)"
  # detect_leaks stays on: a leak is a finding like any other. -timeout: one input that takes 10 s is a hang.
  if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      "$bin" "${extra[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build/fuzz-artifacts/$target-" ${FUZZ_FLAGS:-} "$corpus" "$build/fuzz-seeds/$target" \
      >"$build/fuzz-$target.log" 2>&1; then
    status=1
    echo "fuzz: $target FAILED; the log is $build/fuzz-$target.log, the input under $build/fuzz-artifacts/:"
    grep -E "^(==[0-9]+==ERROR|SUMMARY|.*runtime error)" "$build/fuzz-$target.log" | head -5
    ls -t "$build/fuzz-artifacts/" | grep "^$target-" | head -3
  else
    # The final stats; with -fork they are not printed, and the last status line says as much.
    summary=$(grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)" \
      "$build/fuzz-$target.log" | tr -s ' \n' ' ')
    [ -n "$summary" ] || summary=$(grep -E "^#[0-9]+" "$build/fuzz-$target.log" | tail -1)
    echo "fuzz: $target passed: $summary"
  fi
done
exit $status
