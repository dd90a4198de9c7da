#!/bin/bash
# readme.sh COWTAIL SAMPLES README -- README's headline table is what the
# demo says: `cowtail report` on samples/ as `make demo` runs it, then
# tools/readme_table.py --check against README (make readme-table
# rewrites the table when a change is meant).
set -u
COW=$1 SAMPLES=$2 README=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

cd "$(dirname "$SAMPLES")" || exit 2
"$COW" report --db "$WORK/demo.db" --out "$WORK/demo-report" --force \
    --thresholds "$SAMPLES/fleet/thresholds.json" "$(basename "$SAMPLES")/" > "$WORK/out" 2>&1
check "the demo's report exits 0 or 1 (samples/not-loaded holds a refused file)" test $? -le 1
check "README's headline table is the demo's" \
    python3 "$here/../../tools/readme_table.py" --check "$README" "$WORK/demo-report/summary.md"
finish
