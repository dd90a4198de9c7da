#!/bin/bash
# jobs.sh COWTAIL SAMPLES DATA -- ingest --jobs N gives the same database
# and the same output for every N (same run ids, file ids, rows), refusals
# and rejects included; report and check take --jobs too. Also the op
# names of each file as written (a stale pointer once gave a later file's
# samples an earlier file's op).
set -u
COW=$1
SAMPLES=$2
DATA=$3
. "$(dirname "$0")/lib.sh"

dump() { # dump DB -> the whole database, ingest clock stamps and run uids (random) zeroed
    sqlite3 "$1" "UPDATE runs SET created_at = 0, uid = ''; UPDATE files SET ingested_at = 0;
                  UPDATE refusals SET at = 0; UPDATE run_facts SET stored_at = 0; UPDATE server_facts SET stored_at = 0"
    sqlite3 "$1" .dump
}
for n in 1 2 8; do
    "$COW" ingest --jobs $n --db "$WORK/j$n.db" "$SAMPLES" "$DATA/e2e/tree" "$DATA/e2e/bad" \
        > "$WORK/out$n" 2> "$WORK/err$n"
    echo $? > "$WORK/rc$n"
    dump "$WORK/j$n.db" > "$WORK/dump$n"
done
check "some rows at all" test "$(grep -c 'INSERT INTO samples' "$WORK/dump1")" -gt 100000
check "--jobs 1 exits 1 (rejects, refusals)" test "$(cat "$WORK/rc1")" = 1
for n in 2 8; do
    check "--jobs $n: the same database as --jobs 1" cmp -s "$WORK/dump1" "$WORK/dump$n"
    check "--jobs $n: the same output" cmp -s "$WORK/out1" "$WORK/out$n"
    check "--jobs $n: the same errors" cmp -s "$WORK/err1" "$WORK/err$n"
    check "--jobs $n: the same exit code" test "$(cat "$WORK/rc$n")" = "$(cat "$WORK/rc1")"
done
"$COW" ingest --jobs 2 --db "$WORK/j2.db" "$SAMPLES" > "$WORK/again" 2>&1
check "--jobs 2 re-ingest adds nothing" has "ingested 0 files into 0 runs: 0 records" "$WORK/again"
want=$(tail -n +2 "$SAMPLES/readonly-control/latency.csv" | cut -d, -f3 | sort | uniq -c | awk '{print $2 "|" $1}')
for n in 1 2; do
    got=$(sqlite3 "$WORK/j$n.db" "SELECT o.name, count(*) FROM samples s JOIN ops o ON o.id = s.op
      WHERE s.run = (SELECT id FROM runs WHERE label = 'readonly-control') GROUP BY o.name")
    check "--jobs $n: readonly-control's ops as written ($want)" test "$got" = "$want"
done
"$COW" ingest --jobs 0 --db "$WORK/x.db" "$SAMPLES/steady" 2> "$WORK/e0"
check "--jobs 0 refused" test $? = 2
check "--jobs 0 explained" has "--jobs: '0' is out of range (expected 1 to 64)" "$WORK/e0"
"$COW" check --jobs 2 --db "$WORK/c2.db" --thresholds "$SAMPLES/fleet/thresholds.json" \
    "$SAMPLES/fleet" > "$WORK/c2" 2>&1
"$COW" check --jobs 1 --db "$WORK/c1.db" --thresholds "$SAMPLES/fleet/thresholds.json" \
    "$SAMPLES/fleet" > "$WORK/c1" 2>&1
check "check --jobs 2 prints what --jobs 1 prints" cmp -s "$WORK/c1" "$WORK/c2"
# the runs are judged on worker threads and the checks stored by one
# writer, in run order: the database (checks' clock stamps aside) and --json
# are the same for every N, and so is what a second check says
for n in 1 2; do
    rm -f "$WORK/a$n.db"*
    "$COW" ingest -q --db "$WORK/a$n.db" "$SAMPLES/fleet" > /dev/null 2>&1
    "$COW" check --jobs $n --json --db "$WORK/a$n.db" \
        --thresholds "$SAMPLES/fleet/thresholds.json" > "$WORK/cj$n" 2> /dev/null
    "$COW" check --jobs $n --json --db "$WORK/a$n.db" \
        --thresholds "$SAMPLES/fleet/thresholds.json" > "$WORK/cjj$n" 2> /dev/null
    sqlite3 "$WORK/a$n.db" "UPDATE analyses SET created_at = 0; UPDATE checks SET evaluated_at = 0"
    dump "$WORK/a$n.db" > "$WORK/ad$n"
done
check "check --json: some runs judged" test "$(grep -c '"run":' "$WORK/cj1")" -ge 5
check "check --jobs 2 --json is --jobs 1's" cmp -s "$WORK/cj1" "$WORK/cj2"
check "check --jobs 2 stores what --jobs 1 stores" cmp -s "$WORK/ad1" "$WORK/ad2"
check "check stores no analysis (analyze and report do)" \
    test "$(grep -c 'INSERT INTO deltas' "$WORK/ad1")" = 0
check "a second check says the same" cmp -s "$WORK/cj1" "$WORK/cjj1"
# a stored analysis does not change a verdict, whatever its settings: the
# default one, or one by send time with another seed and fewer resamples
"$COW" analyze --db "$WORK/a1.db" > /dev/null 2>&1
check "analysed" test "$(sqlite3 "$WORK/a1.db" "SELECT count(*) FROM deltas")" -gt 10
"$COW" check --json --db "$WORK/a1.db" \
    --thresholds "$SAMPLES/fleet/thresholds.json" > "$WORK/cja" 2> /dev/null
check "check after analyze says what check alone says" cmp -s "$WORK/cj1" "$WORK/cja"
"$COW" analyze --assign send --seed 7 --resamples 199 --db "$WORK/a1.db" > /dev/null 2>&1
check "analysed by send time, seed 7" \
    test "$(sqlite3 "$WORK/a1.db" "SELECT min(seed) FROM analyses")" = 7
"$COW" check --json --db "$WORK/a1.db" \
    --thresholds "$SAMPLES/fleet/thresholds.json" > "$WORK/cjs" 2> /dev/null
check "check after analyze --assign send --seed 7 says what check alone says" \
    cmp -s "$WORK/cj1" "$WORK/cjs"
# check of capture folders analyses and judges each run as it lands, on
# worker threads beside the ingest: the database and --json are those of an
# ingest followed by a check, for every N
for n in 1 2 3; do
    rm -f "$WORK/s$n.db"*
    "$COW" check --jobs $n --json --db "$WORK/s$n.db" \
        --thresholds "$SAMPLES/fleet/thresholds.json" "$SAMPLES/fleet" > "$WORK/sj$n" 2> "$WORK/sje$n"
    # what it said, shown when it did not give what ingest and check give
    cmp -s "$WORK/cj1" "$WORK/sj$n" || sed "s/^/check --jobs $n (stderr): /" "$WORK/sje$n" >&2
    sqlite3 "$WORK/s$n.db" "UPDATE analyses SET created_at = 0; UPDATE checks SET evaluated_at = 0"
    dump "$WORK/s$n.db" > "$WORK/sd$n"
    check "check --jobs $n of the folders: --json as after ingest" cmp -s "$WORK/cj1" "$WORK/sj$n"
    check "check --jobs $n of the folders: the database as after ingest" \
        cmp -s "$WORK/ad1" "$WORK/sd$n"
done
for n in 1 2 3; do
    "$COW" analyze --jobs $n --json --db "$WORK/a1.db" > "$WORK/an$n" 2> "$WORK/ane$n"
    echo $? >> "$WORK/an$n"
done
nan=$(grep -c '"label"' "$WORK/an1")
check "analyze --json: some runs" test "$nan" -ge 5
[ "$nan" -ge 5 ] || sed 's/^/analyze --jobs 1 (stderr): /' "$WORK/ane1" >&2
check "analyze --jobs 2 prints what --jobs 1 prints" cmp -s "$WORK/an1" "$WORK/an2"
check "analyze --jobs 3 prints what --jobs 1 prints" cmp -s "$WORK/an1" "$WORK/an3"
# ... and where the bootstrap decides the gate's comparison (a p99 lift on a
# 3,000-sample window), an analysis stored with another seed and R = 199
# once set the gate's seed and R: its interval changed with it
mkdir -p "$WORK/boot/r"
awk 'BEGIN { srand(7); print "timestamp_us,latency_us"
    for (i = 0; i < 20000; i++) {
        l = 200 * exp(0.5 * (rand() + rand() + rand() - 1.5))
        if (i >= 9000 && i < 12000 && rand() < 0.05) l *= 20
        printf "%.0f,%.1f\n", 1738591331000000 + i * 2025, l } }' > "$WORK/boot/r/latency.csv"
s=$((1738591331 + 9000 * 2025 / 1000000)) e=$((1738591331 + 12000 * 2025 / 1000000))
{ echo "4711:M $(date -u -d "@$s" '+%d %b %Y %H:%M:%S').000 * Background saving started by pid 4800"
  echo "4800:C $(date -u -d "@$e" '+%d %b %Y %H:%M:%S').000 * DB saved on disk"
  echo "4711:M $(date -u -d "@$e" '+%d %b %Y %H:%M:%S').100 * Background saving terminated with success"
} > "$WORK/boot/r/redis.log"
echo '{"log_tz": "+00:00"}' > "$WORK/boot/r/run.json"
echo '{"max_p99_lift_ms": 0.1}' > "$WORK/boot.json"
"$COW" check --json --db "$WORK/boot.db" --thresholds "$WORK/boot.json" "$WORK/boot" \
    > "$WORK/cb1" 2> /dev/null
check "the gate's p99 lift decided by the bootstrap" has '"detail":[[:space:]]*"bgsave#1, 95% CI' "$WORK/cb1"
"$COW" analyze --seed 7 --resamples 199 --db "$WORK/boot.db" > /dev/null 2>&1
"$COW" check --json --db "$WORK/boot.db" --thresholds "$WORK/boot.json" > "$WORK/cb2" 2> /dev/null
check "an analysis with seed 7 and R 199 before it changes no bootstrap verdict" \
    cmp -s "$WORK/cb1" "$WORK/cb2"
# a stored analysis is reused (doctor, report) only while its input is the
# same: a file landing in the run (here the server log and the INFO series,
# which make the BGSAVE window) drops it; check judges the run as a fresh
# database does before and after
mkdir -p "$WORK/late/cache-b" "$WORK/held"
cp -r "$SAMPLES/fleet/cache-b/bgsave" "$WORK/late/cache-b/"
mv "$WORK/late/cache-b/bgsave/redis.log" "$WORK/late/cache-b/bgsave/info.txt" "$WORK/held/"
"$COW" check --json --db "$WORK/late.db" --thresholds "$SAMPLES/fleet/thresholds.json" \
    "$WORK/late" > "$WORK/before" 2> /dev/null
"$COW" analyze --db "$WORK/late.db" > /dev/null 2>&1
check "analysed without its log" test "$(sqlite3 "$WORK/late.db" "SELECT count(*) FROM analyses")" = 1
mv "$WORK/held/redis.log" "$WORK/held/info.txt" "$WORK/late/cache-b/bgsave/"
"$COW" check --json --db "$WORK/late.db" --thresholds "$SAMPLES/fleet/thresholds.json" \
    "$WORK/late" > "$WORK/after" 2> /dev/null
check "the log landing dropped the stored analysis" \
    test "$(sqlite3 "$WORK/late.db" "SELECT count(*) FROM analyses")" = 0
"$COW" check --json --db "$WORK/fresh.db" --thresholds "$SAMPLES/fleet/thresholds.json" \
    "$WORK/late" > "$WORK/fresh" 2> /dev/null
check "without its log the run has no window" has "no window with samples" "$WORK/before"
check "the log landing: check judges the run as a fresh database does" \
    cmp -s "$WORK/after" "$WORK/fresh"
check "... which differs from before the log" test -n "$(cmp "$WORK/before" "$WORK/after")"
"$COW" analyze --json --db "$WORK/late.db" > "$WORK/an_late" 2> /dev/null
"$COW" analyze --json --db "$WORK/fresh.db" > "$WORK/an_fresh" 2> /dev/null
check "analyze after the log landing: what a fresh database gives" \
    cmp -s "$WORK/an_late" "$WORK/an_fresh"
# INFO lines are stored 64 to a statement, their strings held meanwhile:
# a value too large to hold (here 40,000 bytes) still lands whole, in its
# place among the others, with --jobs 1 and 2 alike
mkdir -p "$WORK/big/r"
{ head -4 "$SAMPLES/fleet/cache-a/bgsave/info.txt"
  printf 'executable:/%s\n' "$(head -c 40000 /dev/zero | tr '\0' x)"
  sed -n '5,400p' "$SAMPLES/fleet/cache-a/bgsave/info.txt"; } > "$WORK/big/r/info.txt"
mkdir -p "$WORK/short/r"
sed 's/^executable:.*/executable:\/x/' "$WORK/big/r/info.txt" > "$WORK/short/r/info.txt"
"$COW" ingest -q --jobs 1 --db "$WORK/short.db" "$WORK/short" > /dev/null 2>&1
want=$(sqlite3 "$WORK/short.db" "SELECT count(*) FROM info")
for n in 1 2; do
    "$COW" ingest -q --jobs $n --db "$WORK/big$n.db" "$WORK/big" > /dev/null 2>&1
    got=$(sqlite3 "$WORK/big$n.db" "SELECT count(*), max(length(text)),
        (SELECT key FROM info WHERE length(text) > 1000),
        (SELECT group_concat(key) FROM (SELECT key FROM info ORDER BY rowid LIMIT 4))
        FROM info")
    check "--jobs $n: a 40,000-byte INFO value lands whole, in order ($got)" \
        test "$got" = "$want|40001|executable|redis_version,redis_git_sha1,executable,redis_git_dirty"
done
finish
