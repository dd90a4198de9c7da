#!/bin/bash
# pctonly.sh COWTAIL DATA -- end-to-end on tests/data/pctonly: a
# redis-benchmark run and a memtier run, no per-request samples, only the
# percentiles their tools printed: they appear in analyze, diff, check,
# the doctor and the report.
set -u
COW=$1
DATA=$2
. "$(dirname "$0")/lib.sh"

DB=$WORK/p.db
"$COW" ingest -q --db "$DB" "$DATA/pctonly" > "$WORK/ingest" 2>&1
check "ingest exits 1 (the bogus Finish time is a rejected line)" test $? = 1
check "both files landed" has "ingested 2 files into 2 runs" "$WORK/ingest"
check "the rejected line names Finish time" has '"Finish time" is not epoch' "$WORK/ingest"

"$COW" analyze --db "$DB" memtier > "$WORK/a"
check "analyze exits 0" test $? = 0
check "analyze prints the reported table" has "reported percentiles" "$WORK/a"
check "memtier Totals p99.9 0.295 ms from 51180" has "Totals  *99.9  *0.295  *51180" "$WORK/a"
"$COW" analyze --db "$DB" --json > "$WORK/j"
check "json has reported_percentiles" has '"reported_percentiles"' "$WORK/j"
check "json has redis-benchmark's source" has '"source":	"redis-benchmark"' "$WORK/j"

"$COW" diff --db "$DB" redis-benchmark memtier > "$WORK/d"
check "diff exits 0" test $? = 0
check "diff says there is no bootstrap" has "no bootstrap from percentiles" "$WORK/d"
check "diff p99: SET 0.471 against Totals 0.143" has "p99  *0.471  *0.143" "$WORK/d"

printf '{"max_p99_ms": 0.2, "max_p999_ms": 1}\n' > "$WORK/th.json"
"$COW" check --db "$DB" --thresholds "$WORK/th.json" > "$WORK/c"
check "check fails redis-benchmark's p99 over 0.2 ms" test $? = 1
check "check names the reporting tool" has "reported by redis-benchmark" "$WORK/c"

"$COW" report --db "$DB" --out "$WORK/rep" > "$WORK/r" 2>&1
check "report exits 0" test $? = 0
check "spectrum chart drawn" test -s "$WORK/rep/spectrum.png"
check "memtier per-second p99 timeline drawn" test -s "$WORK/rep/timeline-memtier.png"
check "summary lists reported percentiles" has "## Reported percentiles" "$WORK/rep/summary.md"
check "summary row for redis-benchmark: every cell SET's own (its p99 is the worst)" has "| redis-benchmark | redis-benchmark | SET | 0.215 | 0.471 | - | 1.527 | |" "$WORK/rep/summary.md"
check "summary row for memtier" has "| memtier | memtier | Totals | 0.031 | 0.143 | 0.295 | 1.127 | 51180 |" "$WORK/rep/summary.md"
unzip -p "$WORK/rep/report.xlsx" xl/workbook.xml > "$WORK/wb" 2>/dev/null
check "workbook has a Reported sheet" has 'name="Reported"' "$WORK/wb"
finish
