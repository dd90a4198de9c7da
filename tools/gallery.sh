#!/bin/bash
# gallery.sh -- docs/gallery/: one current PNG of each chart kind the report
# draws, and a screenshot of index.html, so a reviewer sees them without
# running anything. `make gallery` runs it; review the images, then commit.
#
#   gallery.sh COWTAIL OUT_DIR
# The charts come from `cowtail report` on samples/ (and on
# tests/data/pctonly for the reported-percentile spectrum); the screenshot
# needs chromium (skipped, and said, without it).
set -eu
bin=$1 out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
mkdir -p "$out"
out=$(cd "$out" && pwd)
# paths relative to the project (they show in the charts and the page);
# ingest exits 1 on the samples (samples/not-loaded holds a refused file)
cd "$root"
"$bin" ingest -q --db "$work/s.db" samples >/dev/null 2>&1 || test $? = 1
"$bin" ingest -q --db "$work/s.db" tests/data/pctonly >/dev/null 2>&1 || test $? = 1
cd "$work"
"$bin" report --db s.db --out rep --created 1796000000 \
    --thresholds "$root/samples/fleet/thresholds.json" >/dev/null
rm -f "$out"/*.png
# kind <- the run that shows it best
while read -r kind file; do
    cp "$work/rep/$file" "$out/$kind.png"
done <<'LIST'
timeline timeline-fleet_cache-e_bgsave.png
window window-fleet_cache-e_bgsave.png
distribution distribution-fleet_cache-e_bgsave.png
memory memory-forkless_fork-t1.png
memory-by-mode memory.png
replsync replsync-fullsync-diskless.png
tradeoff tradeoff.png
progress progress.png
fleet fleet.png
spectrum spectrum.png
LIST
if command -v chromium >/dev/null 2>&1; then
    python3 "$root/tests/e2e/browser.py" "$work/rep/index.html" "$out/index-html.png" >/dev/null
    python3 "$root/tests/e2e/browser.py" "$work/rep/index.html" "$out/index-html-run.png" \
        --at run-fleet_cache-e_bgsave >/dev/null
else
    echo "gallery: no screenshot of index.html: chromium is not installed"
fi
ls "$out"
