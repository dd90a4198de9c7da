#!/bin/bash
# diff.sh OLD_COWTAIL [ROWS] [RUNS] -- `cowtail diff --whole` of two ROWS-sample
# runs (default 1,000,000 each, 9,999 resamples) by this build and by
# OLD_COWTAIL (another build, e.g. of the commit before a change), side by
# side: RUNS alternating runs each (default 3), medians and their ratio.
# Each binary gets its own database (schemas may differ).
set -euo pipefail
OLD=$1
ROWS=${2:-1000000}
RUNS=${3:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
NEW=$BUILD/cowtail
WORK=${BENCH_WORK:-$(mktemp -d)}
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT

cc -O2 -o "$WORK/gen" "$ROOT/bench/gen_latency.c"
mkdir -p "$WORK/a" "$WORK/b"
"$WORK/gen" "$ROWS" 1 > "$WORK/a/latency.csv"
"$WORK/gen" "$ROWS" 2 > "$WORK/b/latency.csv"
"$OLD" ingest -q --db "$WORK/old.db" "$WORK/a" "$WORK/b" > /dev/null
"$NEW" ingest -q --db "$WORK/new.db" "$WORK/a" "$WORK/b" > /dev/null

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
old_t=() new_t=()
for i in $(seq "$RUNS"); do
    t0=$(now); "$OLD" diff --db "$WORK/old.db" --whole a b > /dev/null; t1=$(now)
    old_t+=("$(echo "$t1 - $t0" | bc -l)")
    t0=$(now); "$NEW" diff --db "$WORK/new.db" --whole a b > "$WORK/new.txt"; t1=$(now)
    new_t+=("$(echo "$t1 - $t0" | bc -l)")
done
mo=$(printf '%s\n' "${old_t[@]}" | median)
mn=$(printf '%s\n' "${new_t[@]}" | median)
echo "diff --whole, $ROWS vs $ROWS samples, 9999 resamples, $RUNS runs each"
printf 'old %.2f s  new %.2f s  new/old %.2f\n' "$mo" "$mn" "$(echo "$mn / $mo" | bc -l)"
cat "$WORK/new.txt"
