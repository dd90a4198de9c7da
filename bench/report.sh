#!/bin/bash
# report.sh [ROWS] -- the full report of one ROWS-sample run (default
# 10,000,000) against the time to ingest it, side by side. The run has a
# server log with one BGSAVE in the middle, so every per-run chart and the
# deltas have work to do. Target: report < 3x ingest.
set -euo pipefail
ROWS=${1:-10000000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
COW=$BUILD/cowtail
if [ ! -x "$BUILD/bench/timeline_bench" ]; then
    echo "report.sh: $BUILD/bench/timeline_bench is missing: build with the benchmarks" \
         "(cmake -S . -B $BUILD -DCOWTAIL_BENCH=ON, or make bench)" >&2
    exit 2
fi
WORK=${BENCH_WORK:-$(mktemp -d)}
mkdir -p "$WORK/run"
trap 'rm -rf "$WORK"' EXIT

cc -O2 -o "$WORK/gen" "$ROOT/bench/gen_latency.c"
"$WORK/gen" "$ROWS" > "$WORK/run/latency.csv"
# gen_latency starts at 2025-02-03T14:02:11Z, 2 ms apart: a save half-way
mid=$(( ROWS / 2 * 2 / 1000 ))           # seconds into the run
start=$(date -u -d "@$(( 1738591331 + mid ))" '+%d %b %Y %H:%M:%S')
end=$(date -u -d "@$(( 1738591331 + mid + 20 ))" '+%d %b %Y %H:%M:%S')
cat > "$WORK/run/redis.log" <<LOG
4711:M $start.000 * Background saving started by pid 4800
4800:C $end.000 * DB saved on disk
4711:M $end.100 * Background saving terminated with success
LOG
echo '{"log_tz": "+00:00"}' > "$WORK/run/run.json"

now() { date +%s.%N; }
t0=$(now)
"$COW" ingest -q --db "$WORK/r.db" "$WORK/run" > /dev/null
t1=$(now)
"$COW" report --db "$WORK/r.db" --out "$WORK/out" > /dev/null
t2=$(now)
ing=$(echo "$t1 - $t0" | bc -l)
rep=$(echo "$t2 - $t1" | bc -l)
printf 'run of %d samples: ingest %.2f s, report %.2f s (analysis, doctor, %d charts, workbook, summary): %.2fx the ingest\n' \
    "$ROWS" "$ing" "$rep" "$(ls "$WORK/out"/*.png | wc -l)" "$(echo "$rep / $ing" | bc -l)"
"$BUILD/bench/timeline_bench" "$ROWS" 3 "$WORK/tl.png"
