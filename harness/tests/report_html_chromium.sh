#!/bin/sh
# Opens the fixture's HTML report in headless Chromium and checks that every chart drew: the page marks <html>
# with data-charts-expected (canvases) and data-charts-drawn (canvases holding pixels) once Chart.js has run.
# Also checks the file is self-contained and that a hostile task name stayed text.
# usage: report_html_chromium.sh REPORT_SAMPLE_HTML WORKDIR
set -eu
sample=$1
work=$2
fail() { echo "FAIL: $*"; exit 1; }

command -v chromium >/dev/null 2>&1 || fail "chromium is not installed (scripts/setup.sh test installs it)"
rm -rf "$work"
mkdir -p "$work"
"$sample" "$work/report.html" || fail "report_sample_html could not write the report"

# Nothing is fetched: no external scripts, styles, images or frames.
if grep -Eiq '<(script|img|iframe)[^>]*src=|<link[^>]*href=' "$work/report.html"; then
  fail "the report loads something from outside the file"
fi

# As root Chromium needs --no-sandbox; a private profile keeps it from touching $HOME.
# Prints the page's <html> start tag once its scripts have run.
# A fresh profile per page: a second Chromium started while the first is still shutting down would find the
# profile locked.
render() {
  local profile
  profile=$(mktemp -d "$work/profile.XXXXXX")
  timeout 180 chromium --headless --disable-gpu --no-sandbox --disable-dev-shm-usage --no-first-run \
    --user-data-dir="$profile" --virtual-time-budget=10000 --dump-dom "file://$1" \
    >"$work/dom.html" 2>"$work/chromium.log" || { cat "$work/chromium.log"; fail "chromium failed on $1"; }
  grep -o '<html[^>]*>' "$work/dom.html" | head -1
}
mark() { printf '%s' "$1" | sed -n "s/.*data-charts-$2=\"\([0-9]*\)\".*/\1/p"; }

# The check itself must fail on a page whose charts did not draw: here, without the chart library.
"$sample" "$work/broken.html" --without-chart-library || fail "report_sample_html could not write the broken report"
root=$(render "$work/broken.html")
echo "without Chart.js: $root"
[ "$(mark "$root" drawn)" = 0 ] || fail "the check counts charts as drawn without the chart library: $root"
case $root in *data-charts-error*) ;; *) fail "the page did not report the missing library: $root" ;; esac

root=$(render "$work/report.html")
echo "report: $root"
case $root in *data-charts-error*) fail "a chart threw: $root" ;; esac
expected=$(mark "$root" expected)
drawn=$(mark "$root" drawn)
[ -n "$expected" ] || fail "the page never marked its charts (did the script run?)"
[ "$expected" -eq 4 ] || fail "expected 4 chart canvases, the page has $expected"
[ "$drawn" = "$expected" ] || fail "only $drawn of $expected charts drew"

# The hostile name ran no script and shows as text.
if grep -q '<title>pwned</title>' "$work/dom.html"; then fail "a task name was executed as script"; fi
grep -q 'evil&lt;/script&gt;&lt;script&gt;' "$work/dom.html" || fail "the hostile task name is not shown escaped"
echo "PASS: $drawn of $expected charts drew"
