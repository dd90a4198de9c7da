#!/bin/bash
# fleet.sh [RUNS=500] [SAMPLES=20000] -- a fleet batch: RUNS runs (one host
# each) of SAMPLES latency samples, each with a server log (one BGSAVE in
# the middle) and an INFO series (10 dumps). Times, side by side: ingest of
# the tree with --jobs 1 and --jobs 2, and the whole batch an operator
# runs -- check --jobs 2 of the tree into a fresh database (ingest + gate),
# then export --jsonl and, when clickhouse-server is installed, export
# --clickhouse to a local one started for the measurement -- alternating,
# median of REPS=3, check's own time too; peak RSS of each at RUNS/5 and
# at RUNS runs; check --jobs 1 and a second check over the same database
# (nothing to ingest); analyze --jobs 2 of the checked database (check
# stores no analysis) and the export of its results (--jsonl, and
# --clickhouse twice and with --samples). Generated data stays in a
# temporary folder (BENCH_WORK to choose it), removed at the end unless
# KEEP=1.
set -euo pipefail
RUNS=${1:-500}
SAMPLES=${2:-20000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
COW=$BUILD/cowtail
WORK=${BENCH_WORK:-$(mktemp -d)}
mkdir -p "$WORK"
CHPID=
cleanup() { [ -n "$CHPID" ] && kill "$CHPID" 2> /dev/null && wait "$CHPID" 2> /dev/null; [ -n "${KEEP:-}" ] || rm -rf "$WORK"; }
trap cleanup EXIT

cc -O2 -o "$WORK/gen" "$ROOT/bench/gen_latency.c"
# one INFO dump of a real capture, as the template of every poll
TPL=$ROOT/samples/fleet/cache-a/bgsave/info.txt
awk 'NR > 1 && /^# ts=/ {exit} NR > 1 {print}' "$TPL" > "$WORK/info1"

gen_tree() { # gen_tree DIR N
    local dir=$1 n=$2 i
    for i in $(seq "$n"); do
        local d=$dir/host-$i/bgsave
        mkdir -p "$d"
        "$WORK/gen" "$SAMPLES" "$i" > "$d/latency.csv"
        # the first stamp is 1738591331 s (gen_latency); ~2.025 ms apart
        local span=$(( SAMPLES * 2025 / 1000000 )) t0=1738591331
        local s=$(( t0 + span / 2 )) e=$(( t0 + span / 2 + span / 10 + 1 ))
        {
            echo "4711:M $(date -u -d "@$s" '+%d %b %Y %H:%M:%S').000 * Background saving started by pid 4800"
            echo "4800:C $(date -u -d "@$e" '+%d %b %Y %H:%M:%S').000 * DB saved on disk"
            echo "4711:M $(date -u -d "@$e" '+%d %b %Y %H:%M:%S').100 * Background saving terminated with success"
        } > "$d/redis.log"
        awk -v t0=$t0 -v span=$span -v s=$s -v e=$e 'BEGIN {
                while ((getline l < "'"$WORK/info1"'") > 0) tpl[++n] = l
                for (k = 0; k < 10; k++) {
                    t = t0 + span * k / 10
                    printf "# ts=%.0f\n", t * 1000
                    for (j = 1; j <= n; j++) {
                        l = tpl[j]
                        if (l ~ /^server_time_usec:/) l = sprintf("server_time_usec:%.0f", t * 1000000)
                        else if (l ~ /^rdb_bgsave_in_progress:/) l = "rdb_bgsave_in_progress:" (t >= s && t < e ? 1 : 0)
                        print l
                    }
                }
            }' > "$d/info.txt"
        printf '{"host": "host-%d", "scenario": "bgsave", "mode": "fork", "log_tz": "+00:00"}\n' "$i" > "$d/run.json"
    done
}
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l; }
rss_mib() { echo $(( $1 / 1024 )); }

small=$(( RUNS / 5 ))
gen_tree "$WORK/big" "$RUNS"
gen_tree "$WORK/small" "$small"
echo "tree: $RUNS runs x $SAMPLES samples, $(du -sm "$WORK/big" | cut -f1) MiB"
THR=$ROOT/samples/fleet/thresholds.json

CH=$(command -v clickhouse-server || echo /usr/sbin/clickhouse-server)
if [ -x "$CH" ]; then
    d=$WORK/ch
    mkdir -p "$d/data" "$d/tmp"
    printf '<?xml version="1.0"?><yandex><profiles><default/></profiles><users><default><password/><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users><quotas><default/></quotas></yandex>\n' > "$d/users.xml"
    printf '<?xml version="1.0"?><yandex><logger><level>warning</level><console>1</console></logger><listen_host>127.0.0.1</listen_host><http_port>28123</http_port><tcp_port>29000</tcp_port><path>%s/data/</path><tmp_path>%s/tmp/</tmp_path><users_config>%s/users.xml</users_config><mark_cache_size>5368709120</mark_cache_size></yandex>\n' "$d" "$d" "$d" > "$d/config.xml"
    "$CH" --config-file="$d/config.xml" > "$d/log" 2>&1 &
    CHPID=$!
    for i in $(seq 100); do curl -s 'http://127.0.0.1:28123/?query=SELECT%201' 2> /dev/null | grep -q 1 && break; sleep 0.1; done
else
    CH=
fi

ingest_once() { # ingest_once TREE JOBS -> "seconds peak_kib"
    rm -f "$WORK"/i.db*
    local t0 t1 k
    t0=$(now)
    k=$( { /usr/bin/time -f %M "$COW" ingest -q --jobs "$2" --db "$WORK/i.db" "$1" > /dev/null; } 2>&1 | tail -1)
    t1=$(now)
    echo "$(secs "$t0" "$t1") $k"
}
check_once() { # check_once TREE JOBS [again] -> "seconds peak_kib" (c.db is kept for export)
    [ "${3:-}" = again ] || rm -f "$WORK"/c.db*
    local t0 t1 k
    t0=$(now)
    k=$( { /usr/bin/time -f %M "$COW" check --jobs "$2" --db "$WORK/c.db" --thresholds "$THR" "$1" > /dev/null || true; } 2>&1 | tail -1)
    t1=$(now)
    echo "$(secs "$t0" "$t1") $k"
}
batch_once() { # batch_once TREE -> "seconds check_seconds check_peak_kib": check
    # --jobs 2 into a fresh database, then its exports (c.db is kept)
    local t0 t1 c
    rm -rf "$WORK"/bj
    t0=$(now)
    c=$(check_once "$1" 2)
    "$COW" export -q --db "$WORK/c.db" --jsonl "$WORK/bj" > /dev/null
    [ -z "$CH" ] || "$COW" export -q --db "$WORK/c.db" --clickhouse http://127.0.0.1:28123 > /dev/null
    t1=$(now)
    echo "$(secs "$t0" "$t1") $c"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
REPS=${REPS:-3}
for tree in small big; do
    n=$([ $tree = small ] && echo "$small" || echo "$RUNS")
    j1=() j2=() ck=() bt=() rss1=0 rss2=0 rssc=0
    # alternating, as bench/ingest.sh does: ingest --jobs 1, --jobs 2, and
    # the batch: check --jobs 2 of the tree into a fresh database (ingest +
    # gate, timed on its own too) and the exports
    for r in $(seq "$REPS"); do
        read -r t k <<< "$(ingest_once "$WORK/$tree" 1)"; j1+=("$t"); rss1=$k
        read -r t k <<< "$(ingest_once "$WORK/$tree" 2)"; j2+=("$t"); rss2=$k
        read -r b t k <<< "$(batch_once "$WORK/$tree")"; bt+=("$b"); ck+=("$t"); rssc=$k
    done
    # check --jobs 1 into a fresh database; then --jobs 2 again over that
    # database (every file already there: hashing and the gate)
    read -r c1 k1 <<< "$(check_once "$WORK/$tree" 1)"
    read -r ca ka <<< "$(check_once "$WORK/$tree" 2 again)"
    m1=$(printf '%s\n' "${j1[@]}" | median) m2=$(printf '%s\n' "${j2[@]}" | median)
    mc=$(printf '%s\n' "${ck[@]}" | median) mb=$(printf '%s\n' "${bt[@]}" | median)
    printf '%4d runs: ingest --jobs 1 %.2f s (peak RSS %d MiB), --jobs 2 %.2f s (%d MiB): %.2fx; check --jobs 2 %.2f s (%d MiB): %.2fx the --jobs 2 ingest; check --jobs 1 %.2f s (%d MiB); check again %.2f s (%d MiB)\n' \
        "$n" "$m1" "$(rss_mib "$rss1")" "$m2" "$(rss_mib "$rss2")" "$(echo "$m1 / $m2" | bc -l)" \
        "$mc" "$(rss_mib "$rssc")" "$(echo "$mc / $m2" | bc -l)" \
        "$c1" "$(rss_mib "$k1")" "$ca" "$(rss_mib "$ka")"
    printf '%4d runs: batch (check --jobs 2, export --jsonl%s) %.2f s: %.2fx the --jobs 1 ingest\n' \
        "$n" "$([ -n "$CH" ] && echo ', export --clickhouse')" "$mb" "$(echo "$mb / $m1" | bc -l)"
done

# the full analysis of every run (check stores none), then the export of
# the results
t0=$(now)
k=$( { /usr/bin/time -f %M "$COW" analyze --jobs 2 --db "$WORK/c.db" > /dev/null || true; } 2>&1 | tail -1)
t1=$(now)
printf 'analyze --jobs 2 of %d runs: %.2f s (peak RSS %d MiB)\n' "$RUNS" "$(secs "$t0" "$t1")" "$(rss_mib "$k")"
t0=$(now)
"$COW" export -q --db "$WORK/c.db" --jsonl "$WORK/jsonl" > "$WORK/x.jsonl"
t1=$(now)
printf 'export --jsonl of %d runs: %.2f s (%s)\n' "$RUNS" "$(secs "$t0" "$t1")" "$(tail -1 "$WORK/x.jsonl")"
if [ -n "$CHPID" ]; then
    for pass in "after analyze" again; do
        t0=$(now)
        "$COW" export -q --db "$WORK/c.db" --clickhouse http://127.0.0.1:28123 > "$WORK/x.ch"
        t1=$(now)
        printf 'export --clickhouse of %d runs (%s): %.2f s (%s)\n' "$RUNS" "$pass" "$(secs "$t0" "$t1")" "$(tail -1 "$WORK/x.ch")"
    done
    t0=$(now)
    "$COW" export -q --db "$WORK/c.db" --clickhouse http://127.0.0.1:28123 --samples > "$WORK/x.ch"
    t1=$(now)
    printf 'export --clickhouse --samples of %d runs: %.2f s (%s)\n' "$RUNS" "$(secs "$t0" "$t1")" "$(tail -1 "$WORK/x.ch")"
else
    echo "export --clickhouse: skipped (clickhouse-server not installed)"
fi
