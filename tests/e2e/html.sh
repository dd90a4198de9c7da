#!/bin/bash
# html.sh -- index.html of the bundled samples, as a browser shows it:
# cowtail report on samples/, then tidy (no HTML errors) and headless
# Chromium (tests/e2e/browser.py: every image loads, every #link has its
# target, no console error; a screenshot into OUT); the workbook beside it
# through tests/e2e/book_check.py. A run labelled with
# markup, quotes and an ANSI escape must show them as text and run nothing.
# The checker itself must fail on a page with a missing image and on one
# with a dangling #link.
#
#   html.sh COWTAIL SAMPLES OUT
# Exit 77 (skipped) without chromium or tidy.
set -u
bin=$1 samples=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

for tool in chromium tidy python3; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "e2e_html: skipped: $tool is not installed (make deps installs it)"
        exit 77
    fi
done
rm -rf "$out" && mkdir -p "$out"

tidy_ok() { # no errors (warnings are tidy's taste, errors are invalid HTML)
    tidy -errors -q "$1" >"$WORK/tidy.txt" 2>&1
    local rc=$?
    if [ "$rc" -ge 2 ]; then cat "$WORK/tidy.txt" >&2; return 1; fi
    return 0
}
browser() { python3 "$here/browser.py" "$@"; }

# 1. the bundled samples (ingest exits 1: samples/not-loaded holds a
# refused file, which the page lists under the inputs not used)
"$bin" ingest -q --db "$WORK/s.db" "$samples" >"$WORK/ingest.txt" 2>&1
check "ingest of the samples exits 1 (a refused file)" test $? = 1
"$bin" report --db "$WORK/s.db" --out "$out/samples" \
    --thresholds "$samples/fleet/thresholds.json" >"$WORK/report.txt" 2>&1 ||
    { cat "$WORK/report.txt"; echo "FAIL: report on the samples"; exit 1; }
page=$out/samples/index.html
check "index.html written" test -s "$page"
check "tidy: no errors in the samples' page" tidy_ok "$page"
check "browser: the samples' page" browser "$page" "$out/samples-screenshot.png" \
    --expect-text "The answer in words" --expect-text "Across runs" --expect-text "Inputs not used"
check "screenshot written" test -s "$out/samples-screenshot.png"
# the first screen (1280 x 900): the title, then at once the answer table
check "browser: the answer table is the first thing after the title, in the first screen" \
    browser "$page" "$out/samples-first-screen.png" --first-screen
# every run has its section, and every finding links to a chart or says none
check "a section per run" test "$(grep -c '<h2 id="run-' "$page")" -ge 30
check "findings link to their chart" has 'Shown in <a href="#fig-window-' "$page"
check "evidence as file:line" has '<td class="src">[^<]*info.txt:[0-9]' "$page"
check "the refused input is listed" has 'probe-no-unit.csv:1</td><td>refused' "$page"
check "answers open the page" test "$(grep -n 'id="answers"' "$page" | cut -d: -f1)" -lt \
    "$(grep -n '<h2 id="run-' "$page" | head -1 | cut -d: -f1)"
check "tables: window quantiles with their bounds, the legend's words, one legend" \
    python3 "$here/page_check.py" "$page"

# the workbook beside it: the native chart plots p99.9 where only a lower
# bound exists, every sheet prints landscape one page wide with its
# header repeated, the evidence is rows of rule, metric, value, file, line
check "workbook: chart, print setup, evidence rows" \
    python3 "$here/book_check.py" "$out/samples/report.xlsx"

# 2. a hostile label: markup, quotes, an ANSI escape
esc=$(printf '\033')
# the label is the path below the folder given: its '/' nests a folder
bad="$WORK/in/<script>alert(1)</script> \"q\" 'a' ${esc}[31mred"
mkdir -p "$(dirname "$bad")"
cp -r "$samples/steady" "$bad"
sed -i 's|"label": "steady"|"label": "<script>alert(1)</script> \\"q\\" '"'a'"' \\u001b[2J \& <b>bold</b> \\u202egnp.exe\\u200b"|' \
    "$bad/run.json"
"$bin" report --db "$WORK/h.db" --out "$out/hostile" "$WORK/in" >"$WORK/h.txt" 2>&1 ||
    { cat "$WORK/h.txt"; echo "FAIL: report on a hostile label"; exit 1; }
check "hostile: tidy" tidy_ok "$out/hostile/index.html"
check "hostile: no raw <script> in the page" \
    bash -c "! grep -q '<script' '$out/hostile/index.html'"
check "hostile: no ESC byte in the page" bash -c "! grep -q \$'\\033' '$out/hostile/index.html'"
check "hostile: shown as text, nothing run" browser "$out/hostile/index.html" \
    "$out/hostile-screenshot.png" \
    --expect-text "<script>alert(1)</script> \"q\" 'a' \\x1B[2J & <b>bold</b> \\u202Egnp.exe\\u200B"
# bidi and zero-width controls shown escaped in every output, never as
# the invisible characters that reorder a label
rlo=$(printf '\342\200\256') zwsp=$(printf '\342\200\213')
unzip -p "$out/hostile/report.xlsx" xl/sharedStrings.xml > "$WORK/h-strings.xml" 2>/dev/null
for f in "$out/hostile/index.html" "$out/hostile/summary.md" "$WORK/h-strings.xml"; do
    check "hostile: no raw U+202E or U+200B in $(basename "$f")" \
        bash -c "! grep -q '$rlo\\|$zwsp' '$f'"
    check "hostile: shown as \\u202E in $(basename "$f")" grep -q 'gnp.exe' "$f"
done
check "hostile: summary.md shows the escape" grep -q '\\u202Egnp.exe' "$out/hostile/summary.md"

# 3. a run without samples: its windows from the server log, as a table
"$bin" report --db "$WORK/l.db" --out "$out/logonly" "$here/../data/e2e/logonly" \
    >"$WORK/l.txt" 2>&1 || { cat "$WORK/l.txt"; echo "FAIL: report on a log-only run"; exit 1; }
check "log-only: tidy" tidy_ok "$out/logonly/index.html"
check "log-only: the windows table" has '<caption>Windows from the server log' \
    "$out/logonly/index.html"
check "log-only: the killed save is said" has 'bgsave#2</td>.*ended in error or killed' \
    "$out/logonly/index.html"

# 4. the checker fails where it must
mkdir -p "$WORK/broken"
cp "$out/hostile/"*.png "$out/hostile/index.html" "$WORK/broken/"
rm "$WORK/broken/$(ls "$WORK/broken" | grep '^timeline-.*\.png$' | head -1)"
check "checker: a missing image fails" \
    bash -c "! python3 '$here/browser.py' '$WORK/broken/index.html' '$WORK/b1.png' >'$WORK/b1.txt'"
check "checker: says which image" grep -q 'image did not load: timeline-' "$WORK/b1.txt"
cp "$out/hostile/"*.png "$WORK/broken/"
sed 's|href="#answers"|href="#no-such-anchor"|' "$out/hostile/index.html" >"$WORK/broken/index.html"
check "checker: a dangling #link fails" \
    bash -c "! python3 '$here/browser.py' '$WORK/broken/index.html' '$WORK/b2.png' >'$WORK/b2.txt'"
check "checker: says which link" grep -q 'link to #no-such-anchor' "$WORK/b2.txt"
printf '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><script>console.error("boom")</script></body></html>\n' >"$WORK/broken/index.html"
check "checker: a console error fails" \
    bash -c "! python3 '$here/browser.py' '$WORK/broken/index.html' '$WORK/b3.png' >'$WORK/b3.txt'"
check "checker: says what the console said" grep -q 'console error: boom' "$WORK/b3.txt"
finish
