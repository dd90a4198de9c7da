#!/bin/bash
# ingest.sh [ROWS] [RUNS] -- cowtail ingest vs sqlite3 .import, side by side.
#
# Generates a ROWS-row CSV (timestamp_us,latency_us,op; default 10,000,000),
# then alternates RUNS times (default 3): `cowtail ingest` into a fresh file
# database, and the sqlite3 shell's `.import` of the same file into a typed
# table in a fresh file database (WAL, as cowtail). Prints the median
# rows/s of both, their ratio, and cowtail's peak memory at ROWS and at a
# tenth of ROWS (streaming: it must not grow with the file).
set -euo pipefail
ROWS=${1:-10000000}
RUNS=${2:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
COW=$BUILD/cowtail
WORK=${BENCH_WORK:-$(mktemp -d)}
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT

cc -O2 -o "$WORK/gen" "$ROOT/bench/gen_latency.c"
mkdir -p "$WORK/cap" "$WORK/small"
"$WORK/gen" "$ROWS" > "$WORK/cap/latency.csv"
"$WORK/gen" $((ROWS / 10)) > "$WORK/small/latency.csv"
SIZE=$(stat -c %s "$WORK/cap/latency.csv")
echo "input: $ROWS rows, $((SIZE / 1048576)) MiB; $RUNS runs each, alternating"

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

cow_times=() imp_times=()
for i in $(seq "$RUNS"); do
    rm -f "$WORK"/c.db*
    t0=$(now)
    "$COW" ingest -q --db "$WORK/c.db" "$WORK/cap" > /dev/null
    t1=$(now)
    cow_times+=("$(echo "$t1 - $t0" | bc -l)")

    rm -f "$WORK"/i.db*
    t0=$(now)
    sqlite3 "$WORK/i.db" <<SQL
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE samples(timestamp_us INTEGER, latency_us REAL, op TEXT);
.mode csv
.import --skip 1 $WORK/cap/latency.csv samples
SQL
    t1=$(now)
    imp_times+=("$(echo "$t1 - $t0" | bc -l)")
    echo "run $i: cowtail ${cow_times[-1]} s, sqlite3 .import ${imp_times[-1]} s"
done
cow_med=$(printf '%s\n' "${cow_times[@]}" | median)
imp_med=$(printf '%s\n' "${imp_times[@]}" | median)
cow_rate=$(echo "$ROWS / $cow_med" | bc -l)
imp_rate=$(echo "$ROWS / $imp_med" | bc -l)
printf 'median: cowtail %.2f s (%.0f rows/s), sqlite3 .import %.2f s (%.0f rows/s), ratio %.2fx\n' \
    "$cow_med" "$cow_rate" "$imp_med" "$imp_rate" "$(echo "$cow_rate / $imp_rate" | bc -l)"

rm -f "$WORK"/m.db*
big=$( { /usr/bin/time -f %M "$COW" ingest -q --db "$WORK/m.db" "$WORK/cap" > /dev/null; } 2>&1 | tail -1)
rm -f "$WORK"/m.db*
small=$( { /usr/bin/time -f %M "$COW" ingest -q --db "$WORK/m.db" "$WORK/small" > /dev/null; } 2>&1 | tail -1)
echo "peak RSS: $((big / 1024)) MiB at $ROWS rows, $((small / 1024)) MiB at $((ROWS / 10)) rows"
