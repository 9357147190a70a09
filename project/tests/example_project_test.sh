#!/bin/sh
# One example's --emit=project output run by `tilecraft project run` against the interpreter:
#   example_project_test.sh TILECRAFT SOURCE_DIR EXAMPLE "INTERP_ARGS..."
# EXAMPLE is examples/<EXAMPLE>.tile; INTERP_ARGS are the --shape/--attr/--range the interpreter takes. The
# interpreter writes the inputs and the expected outputs; the project gets the same inputs and attributes and must
# match every output (an in/out tensor's final value included). Prints "PASS DIR" on a match.
set -eu
tilecraft=$1
src=$2
example=$3
interp_args=$4
prev=
work=$(mktemp -d "${TMPDIR:-/tmp}/tilecraft-example-project-XXXXXX")
trap 'rm -rf "$work"' EXIT
name=$(basename "$example")
"$tilecraft" compile "$src/examples/$example.tile" --emit=project -o "$work/$name" >/dev/null
# shellcheck disable=SC2086
"$tilecraft" interp "$src/examples/$example.tile" $interp_args --seed 5 --save-inputs --out "$work/io" >/dev/null
set --
for f in "$work"/io/*.in.npy; do
  n=$(basename "$f" .in.npy)
  set -- "$@" --in "$n=$f"
done
for f in "$work"/io/*.npy; do
  case "$f" in *.in.npy) continue ;; esac
  set -- "$@" --expect "$(basename "$f" .npy)=$f"
done
for a in $interp_args; do
  case "$a" in *=*) case "$prev" in --attr) set -- "$@" --attr "$a" ;; esac ;; esac
  prev=$a
done
cd "$work"
exec "$tilecraft" project run "$name" "$@"
