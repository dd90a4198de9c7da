#!/bin/bash
# hostile.sh COWTAIL BENCHOUT -- hostile input, end to end: every input is
# built here at test time (nothing big is committed), and each case checks
# the exact exit code and message. Each case failed before its fix (crash
# under ASan, hang, silent wrong answer or an unclear "skipped").
set -u
COW=$1
BENCHOUT=$2
. "$(dirname "$0")/../e2e/lib.sh"
. "$(dirname "$0")/lib.sh"
lines() { awk '{print}' ; }
csv_rows() { # csv_rows N: N good latency rows
    local i; for ((i = 0; i < $1; i++)); do echo "$((EPOCH * 1000000 + i * 1000)),5.0"; done
}

# --- 1 crash: a NUL in the op column after a name already seen (ASan)
d=$(mk nulop)
printf 'timestamp_us,latency_us,op\n1796028608433937,5.0,set\n1796028608435937,5.0,set\000abcdefghijklmnop\n' > "$d/latency.csv"
run nulop "$COW" ingest --db "$WORK/nulop.db" "$d"
check "1.1 NUL op: exit 1" test "$rc" = 1
check "1.1 NUL op: line rejected with reason" has "latency.csv:3: op holds a NUL byte: not text" "$WORK/nulop.out"

# --- 1 redis-benchmark p500 is not a quantile; huge request counts
d=$(mk p500)
sed 's/ p95 / p500/' "$BENCHOUT/rbench_7.0_report.txt" > "$d/rbench.txt"
run p500 "$COW" ingest --db "$WORK/p500.db" "$d"
check "1.2 p500: ingest does not crash" test "$rc" -le 1
check "1.2 p500: no quantile beyond 100 stored" \
    test "$(sqlite3 "$WORK/p500.db" 'SELECT count(*) FROM pctl WHERE q > 100')" = 0

# --- 1 redis-cli --latency figures whose intervals, laid end to end, run
# past 2100 (a sample count of 10^14: found by the fuzz campaign)
d=$(mk clilat2100)
printf '0 1 0.50 10\n0 1 0.50 20\n0 1 0.50 1\n5 9 8.0 99999999999999\n' > "$d/latency-history-$EPOCH.txt"
run clilat2100 "$COW" ingest --db "$WORK/clilat2100.db" "$d/latency-history-$EPOCH.txt"
check "1.4 intervals past 2100: exit 1" test "$rc" = 1
check "1.4 ... refused with the line and reason" has "latency-history-$EPOCH.txt:4: an interval of 1.8e+12 s (99999999999999 samples) laid after the ones before it would end after 2100" "$WORK/clilat2100.out"

# --- 1 INFO and hdr stamps in 1970
d=$(mk info1970)
printf '# Server\nserver_time_usec:1000\nprocess_id:7\n# Memory\nused_memory:100\n' > "$d/info.txt"
run info1970 "$COW" ingest --db "$WORK/info1970.db" "$d"
check "1.3 INFO server_time_usec in 1970 rejected" has "server_time_usec outside 1990..2100: not a wall clock" "$WORK/info1970.out"
d=$(mk hgrm1970)
printf '#[Histogram log format version 1.3]\n#[StartTime: 5.000 (seconds since epoch)]\n"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"\n0.127,1.007,2.769,HISTFAAAAEV42pJpmSzMwMCAyQwMDMAEAAAA\n' > "$d/hdr.hgrm"
run hgrm1970 "$COW" ingest --db "$WORK/hgrm1970.db" --parser hdr-percentiles --latency-unit ms "$d"
check "1.3 hgrm StartTime in 1970 rejected" has "interval end before 1990" "$WORK/hgrm1970.out"

# --- 3 hangs: a latency of 1e308 (report spun in chart_nice_ticks)
d=$(mk inf)
{ echo timestamp_us,latency_us; csv_rows 50; echo "$((EPOCH * 1000000 + 60000000)),1e308"; } > "$d/latency.csv"
run inf "$COW" ingest --db "$WORK/inf.db" "$d"
check "3.1 latency 1e308: exit 1" test "$rc" = 1
check "3.1 latency 1e308: rejected as over an hour" has "latency.csv:52: latency over an hour" "$WORK/inf.out"
run infrep "$COW" report --db "$WORK/inf.db" --out "$WORK/inf-report"
check "3.1 report ends (no hang) and succeeds" test "$rc" = 0

# --- 3 JSON arrays: positions in one pass (100k objects took 76 s)
d=$(mk jsonarr)
awk -v e="$EPOCH" 'BEGIN { printf "["; for (i = 0; i < 100000; i++)
    printf "%s{\"timestamp_us\":%.0f,\"latency_us\":5}\n", i ? "," : "", e * 1000000 + i * 100; print "]" }' > "$d/probe.json"
start=$(date +%s)
run jsonarr "$COW" ingest --db "$WORK/jsonarr.db" "$d"
check "3.2 JSON array of 100k objects: exit 0" test "$rc" = 0
check "3.2 ... all landed" has "100000 samples, 0 rejected" "$WORK/jsonarr.out"
check "3.2 ... in linear time (< 20 s even under ASan)" test $(( $(date +%s) - start )) -lt 20

# --- 3 160k unmatched "Background saving started" (103 s, 567 MB before)
d=$(mk unmatched)
awk 'BEGIN { for (i = 0; i < 160000; i++) { s = int(i / 1000); printf "4711:M 03 Feb 2025 14:%02d:%02d.%03d * Background saving started by pid %d\n", int(s / 60) % 60, s % 60, i % 1000, 1000 + i } }' > "$d/redis.log"
{ echo timestamp_us,latency_us; for ((i = 0; i < 20; i++)); do echo "$((1738591320 * 1000000 + i * 1000000)),1.0"; done; } > "$d/latency.csv"
run unm1 "$COW" ingest -q --db "$WORK/unm.db" "$d"
check "3.3 160k unmatched saves: ingest exit 0" test "$rc" = 0
start=$(date +%s)
run unm2 "$COW" analyze --db "$WORK/unm.db"
check "3.3 analyze refuses the run by the windows limit" has "160000 save/sync/rewrite windows in one run (the limit is 10000)" "$WORK/unm2.out"
check "3.3 ... quickly (< 30 s)" test $(( $(date +%s) - start )) -lt 30

# --- 3 whole-file readers refuse by size before reading (a sparse file)
d=$(mk bigjson)
printf '[' > "$d/probe.json"; truncate -s 600M "$d/probe.json"
run bigjson "$COW" ingest --db "$WORK/bigjson.db" --parser latency-json "$d"
check "3.4 600 MB JSON array: exit 1" test "$rc" = 1
check "3.4 ... refused by size before reading" has "file of 629145600 bytes is over the limit of 512 MiB for files read whole: nothing of it was read" "$WORK/bigjson.out"

# --- limits: the line length (16 MiB): 100 good rows and a 17 MB last line
d=$(mk longline)
{ echo timestamp_us,latency_us; csv_rows 100; head -c 17000000 /dev/zero | tr '\0' '7'; echo; } > "$d/latency.csv"
run longline "$COW" ingest --db "$WORK/longline.db" "$d"
check "limit line: exit 1 (one line rejected)" test "$rc" = 1
check "limit line: the 100 good rows land" has "100 samples, 1 rejected" "$WORK/longline.out"
check "limit line: the long line is named" has "latency.csv:102: line longer than 16 MiB (the line limit): skipped" "$WORK/longline.out"

# --- limits: JSON nesting (cJSON's 1000)
d=$(mk deep)
awk 'BEGIN { for (i = 0; i < 1001; i++) printf "["; for (i = 0; i < 1001; i++) printf "]"; print "" }' > "$d/probe.json"
run deep "$COW" ingest --db "$WORK/deep.db" --parser latency-json "$d"
check "limit JSON depth: refused, exit 1" test "$rc" = 1
check "limit JSON depth: says invalid JSON" has "invalid JSON here" "$WORK/deep.out"

# --- limits: run.json over 1 MiB
d=$(mk bigmeta)
printf '{' > "$d/run.json"; truncate -s 2M "$d/run.json"; cp "$WORK/nulop/latency.csv" "$d/"
run bigmeta "$COW" ingest --db "$WORK/bigmeta.db" "$d"
check "limit run.json: refused with the limit" has "over the limit of 1 MiB for files read whole" "$WORK/bigmeta.out"

# --- run.json numbers beyond their type (UB casts the fuzzer found)
d=$(mk bigtrial)
printf '{"trial":5.6e76}' > "$d/run.json"; cp "$WORK/nulop/latency.csv" "$d/"
run bigtrial "$COW" ingest --db "$WORK/bigtrial.db" "$d"
check "run.json trial 5.6e76: refused with its range" has 'run.json "trial" must be a number -1..1000000000' "$WORK/bigtrial.out"

# --- 4 one run took the whole report down: long, Latin-1, ESC labels;
#     5 labels "a b", "a/b", "a_b" shared one chart file
d=$(mk labels)
long=$(printf 'p%.0s' $(seq 1 150))
for lab in "$long" "a b" "a_b" "esc"; do
    mkdir -p "$d/$lab"; { echo timestamp_us,latency_us; csv_rows 30; } > "$d/$lab/latency.csv"
done
mkdir -p "$d/a/b"; { echo timestamp_us,latency_us; csv_rows 30; } > "$d/a/b/latency.csv"
printf '{"label":"caf\351 <script>|x"}' > "$d/$long/run.json"      # Latin-1
printf '{"label":"e\\u001b[2Jx"}' > "$d/esc/run.json"
run labels1 "$COW" ingest --db "$WORK/labels.db" "$d"
check "4.1 labels: ingest exit 0" test "$rc" = 0
check "5.1 ingest output has no raw ESC" test "$(grep -c $'\033' "$WORK/labels1.out")" = 0
run labels2 "$COW" report --db "$WORK/labels.db" --out "$WORK/labels-report"
check "4.1 report with a 150-char and a Latin-1 label: exit 0" test "$rc" = 0
check "5.2 five runs, five timelines (no overwrite)" \
    test "$(ls "$WORK/labels-report" | grep -c '^timeline-')" = 5
check "5.2 a_b collides and gets a suffix" test -e "$WORK/labels-report/timeline-a_b-2.png"
check "5.3 summary.md: HTML and | escaped" has 'caf� \\<script\\>\\|x' "$WORK/labels-report/summary.md"
check "5.3 summary.md: no raw ESC" test "$(grep -c $'\033' "$WORK/labels-report/summary.md")" = 0
check "5.4 xlsx chart parts: no raw control characters" \
    test "$(unzip -p "$WORK/labels-report/report.xlsx" 'xl/charts/*' | tr -d '\n\t' | LC_ALL=C grep -c '[[:cntrl:]]')" = 0
run labels3 "$COW" runs --db "$WORK/labels.db"
check "5.5 runs: ESC shown as \\x1B" has 'e\\x1B\[2Jx' "$WORK/labels3.out"
check "5.5 runs: no raw ESC" test "$(grep -c $'\033' "$WORK/labels3.out")" = 0

# --- 6 impossible values are rejected with the reason
d=$(mk impossible)
printf '# Server\nserver_time_usec:1796028608433937\n# Persistence\nlatest_fork_usec:1e308\n# Memory\nused_memory:1180591620717411303424\nused_memory_rss:1000\n# Stats\ntotal_commands_processed:1180591620717411303424\n' > "$d/info.txt"
printf 'Rss:            18014398509481984 kB\nPss:                 100 kB\n' > "$d/smaps_rollup"
printf '4711:M 03 Feb 2025 14:02:11.532 * Background saving started by pid 12\n4711:C 03 Feb 2025 14:02:12.532 * Fork CoW for RDB: current 1 MB, peak 1e308 MB, average 1 MB\n4711:M 03 Feb 2025 14:02:13.532 * Background saving terminated with success\n' > "$d/redis.log"
run impossible "$COW" ingest --db "$WORK/imp.db" "$d"
check "6.1 latest_fork_usec:1e308 rejected" has "info.txt:4: a fork that took more than an hour" "$WORK/impossible.out"
check "6.2 INFO memory of 2^70 bytes rejected" has "info.txt:6: memory beyond 2^50 bytes" "$WORK/impossible.out"
check "6.2 INFO counter of 2^70 rejected" has "info.txt:9: value beyond 2^53" "$WORK/impossible.out"
check "6.3 smaps 2^54 kB rejected" has "smaps_rollup:1: memory beyond 2^50 bytes" "$WORK/impossible.out"
check "6.4 log peak 1e308 MB not stored as 1 MB" has "redis.log:2: 'cow_rdb' line without the number" "$WORK/impossible.out"
check "6.x nothing impossible stored" \
    test "$(sqlite3 "$WORK/imp.db" "SELECT count(*) FROM info WHERE key IN ('latest_fork_usec','used_memory')")" = 0

# --- 7 two ingests into a fresh database raced on the schema
d=$(mk race)
{ echo timestamp_us,latency_us; csv_rows 2000; } > "$d/latency.csv"
for i in 1 2 3 4 5 6 7 8 9 10; do
    rm -f "$WORK/race.db"*
    "$COW" ingest -q --db "$WORK/race.db" "$d" > "$WORK/race1.out" 2>&1 &
    "$COW" ingest -q --db "$WORK/race.db" "$WORK/nulop" > "$WORK/race2.out" 2>&1
    wait
    # waiting for the other writer ("locked by pid N: waiting for it") is
    # what a second writer should do; failing on the schema or giving up is not
    check "7.1 parallel first ingests ($i): no schema race" \
        test "$(cat "$WORK/race1.out" "$WORK/race2.out" | grep -c 'already exists\|database is locked')" = 0
done

# --- 7.2 a writer held up by another says who holds the lock, waits
# (COWTAIL_LOCK_TIMEOUT), and names it again when it gives up
d=$(mk lock)
{ echo timestamp_us,latency_us; csv_rows 50; } > "$d/latency.csv"
"$COW" ingest -q --db "$WORK/lock.db" "$d" > /dev/null 2>&1
mkfifo "$WORK/lock.fifo"
sqlite3 "$WORK/lock.db" < "$WORK/lock.fifo" > "$WORK/lock.sq" 2>&1 &
holder=$!
exec 3> "$WORK/lock.fifo"
echo "BEGIN IMMEDIATE; SELECT 'held';" >&3
for i in $(seq 1 100); do grep -q held "$WORK/lock.sq" && break; sleep 0.05; done
{ echo timestamp_us,latency_us; csv_rows 50; } | sed 's/,5\.0$/,6.0/' > "$WORK/lock2.csv"
mkdir -p "$WORK/lock2" && mv "$WORK/lock2.csv" "$WORK/lock2/latency.csv"
COWTAIL_LOCK_TIMEOUT=1500ms run lockwait "$COW" ingest --db "$WORK/lock.db" "$WORK/lock2"
check "7.2 locked out: exit 3" test "$rc" = 3
check "7.2 while waiting, the holder named" has "^cowtail: .*lock.db: locked by pid $holder (sqlite3): waiting for it, up to 1.5 s$" "$WORK/lockwait.out"
check "7.2 after giving up, named again" has "begin: database is locked by pid $holder (sqlite3): it held the write lock for 1.5 s; try again when it has finished$" "$WORK/lockwait.out"
COWTAIL_LOCK_TIMEOUT=soon run lockbad "$COW" runs --db "$WORK/lock.db"
check "7.2 a bad COWTAIL_LOCK_TIMEOUT: exit 2" test "$rc" = 2
check "7.2 and why" has "COWTAIL_LOCK_TIMEOUT" "$WORK/lockbad.out"
COWTAIL_LOCK_TIMEOUT=10s "$COW" ingest -q --db "$WORK/lock.db" "$WORK/lock2" > "$WORK/lockok.out" 2>&1 &
waiter=$!
for i in $(seq 1 160); do grep -q waiting "$WORK/lockok.out" && break; sleep 0.05; done
echo "COMMIT;" >&3
exec 3>&-
wait "$holder"
wait "$waiter"
check "7.2 released in time: the waiting ingest lands (exit 0)" test $? = 0
check "7.2 having said it waited" has "locked by pid $holder (sqlite3): waiting for it, up to 10 s" "$WORK/lockok.out"

# --- 7.3 the holder is another cowtail: named with its command. The
# holder is caught while it holds the write lock and stopped (SIGSTOP)
d=$(mk lockbig)
awk -v e="$EPOCH" 'BEGIN { print "timestamp_us,latency_us"
    for (i = 0; i < 100000; i++) printf "%.0f,%d.5\n", e * 1000000 + i * 100, 100 + i % 50 }' > "$d/latency.csv"
held=0
for try in 1 2 3; do
    rm -f "$WORK/lock3.db"*
    "$COW" ingest -q --db "$WORK/lock3.db" "$WORK/lock2" > /dev/null 2>&1
    "$COW" ingest -q --db "$WORK/lock3.db" "$d" > /dev/null 2>&1 &
    big=$!
    for i in $(seq 1 400); do
        if ! sqlite3 -cmd ".timeout 0" "$WORK/lock3.db" "BEGIN IMMEDIATE; ROLLBACK;" > /dev/null 2>&1; then
            kill -STOP "$big"
            sqlite3 -cmd ".timeout 0" "$WORK/lock3.db" "BEGIN IMMEDIATE; ROLLBACK;" > /dev/null 2>&1 || { held=1; break; }
            kill -CONT "$big"
        fi
        sleep 0.01
    done
    if [ "$held" = 1 ]; then
        COWTAIL_LOCK_TIMEOUT=300ms run lockcow "$COW" ingest --db "$WORK/lock3.db" "$WORK/lock"
        kill -CONT "$big"
    fi
    wait "$big"
    [ "$held" = 1 ] && break
done
check "7.3 a cowtail ingest caught holding the lock" test "$held" = 1
check "7.3 named with its command" has "locked by pid $big (cowtail ingest): waiting for it, up to 0.3 s$" "$WORK/lockcow.out"

# --- 8 weak spots: clear messages, exit 1
d=$(mk empty); : > "$d/latency.csv"
run empty "$COW" ingest --db "$WORK/w.db" "$d"
check "8.1 empty file: exit 1" test "$rc" = 1
check "8.1 empty file: says so" has "latency.csv: empty file (0 bytes): nothing to read" "$WORK/empty.out"
d=$(mk headonly); echo timestamp_us,latency_us > "$d/latency.csv"
run headonly "$COW" ingest --db "$WORK/w.db" "$d"
check "8.2 header only: exit 1" test "$rc" = 1
check "8.2 header only: says so" has "latency.csv: header only: no data rows" "$WORK/headonly.out"
d=$(mk cronly); printf 'timestamp_us,latency_us\r1796028608433937,5.0\r' > "$d/latency.csv"
run cronly "$COW" ingest --db "$WORK/w.db" "$d"
check "8.3 CR-only line ends: exit 1 with a fix" has "line ends are CR only (classic Mac text)" "$WORK/cronly.out"
d=$(mk latin1); printf 'timestamp_us,latenz_\351_us\n1796028608433937,5.0\n' > "$d/latency.csv"
run latin1 "$COW" ingest --db "$WORK/w.db" "$d"
check "8.4 invalid UTF-8 header: says so" has "not text: invalid UTF-8 at line 1, column 21: convert it" "$WORK/latin1.out"
d=$(mk duphead); printf 'timestamp_us,latency_us,latency_us\n1796028608433937,5.0,7\n' > "$d/latency.csv"
run duphead "$COW" ingest --db "$WORK/w.db" "$d"
check "8.5 duplicate header names: exit 1" test "$rc" = 1
check "8.5 duplicate header names: named" has "columns 2 and 3 ('latency_us') both look like the latency column" "$WORK/duphead.out"
d=$(mk steps)
{ echo timestamp_us,latency_us; t=$((EPOCH * 1000000))
  for ((i = 0; i < 10; i++)); do echo "$((t + 5000000)),1"; echo "$((t + 150000)),1"; t=$((t + 5000000)); done; } > "$d/latency.csv"
run steps "$COW" ingest --db "$WORK/w.db" "$d"
check "8.6 ten 4.85 s steps back: noted" has "went back by more than 1 s 10 times (largest 4.850 s)" "$WORK/steps.out"
d=$(mk logbin)
{ echo '4711:M 03 Feb 2025 14:02:11.532 * Ready to accept connections'; head -c 2000000 /dev/urandom; } > "$d/redis.log"
run logbin "$COW" ingest --db "$WORK/w.db" "$d"
check "8.7 a log line then 2 MB of random bytes: exit 1" test "$rc" = 1
check "8.7 ... refused as binary (random bytes: the first non-text line varies)" has "redis.log:[0-9]*: binary data from line [0-9]* on" "$WORK/logbin.out"

# --- 8.8 a full file system: the commands that only read still work (the
# -shm file a WAL reader needs cannot be created: they hold the database
# exclusively with the WAL index in memory); analyze and doctor show what
# they find without storing it; writers and outputs on it fail clearly.
# Needs a small tmpfs, so root: skipped, and said so, otherwise.
FULL=$WORK/full
mkdir -p "$FULL"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=4m cowtail-full "$FULL" 2> /dev/null; then
    trap 'umount "$FULL" 2> /dev/null; rm -rf "$WORK"' EXIT
    d=$(mk fullrun)
    { echo timestamp_us,latency_us; csv_rows 3000; } > "$d/latency.csv"
    "$COW" ingest -q --db "$FULL/f.db" "$d" > /dev/null 2>&1
    dd if=/dev/zero of="$FULL/fill" bs=4k > /dev/null 2>&1
    check "8.8 the file system is full" test "$(df --output=avail "$FULL" | tail -1 | tr -d ' ')" = 0
    FULLMSG="cowtail: $FULL/f.db: its file system is full: reading without writing (what analyze and doctor find is shown, not stored)"
    run fullruns "$COW" runs --db "$FULL/f.db"
    check "8.8 runs: exit 0" test "$rc" = 0
    check "8.8 runs: lists the run" has "^fullrun  *1  *3000 " "$WORK/fullruns.out"
    check "8.8 runs: says the disk is full" has "^$FULLMSG$" "$WORK/fullruns.out"
    run fulljson "$COW" runs --db "$FULL/f.db" --json
    check "8.8 runs --json: exit 0" test "$rc" = 0
    run fullrej "$COW" rejects --db "$FULL/f.db"
    check "8.8 rejects: exit 0" test "$rc" = 0
    run fullan "$COW" analyze --db "$FULL/f.db" fullrun
    check "8.8 analyze: exit 0, shown" test "$rc" = 0
    check "8.8 analyze: the run analysed" has "^run fullrun: 3000 samples from" "$WORK/fullan.out"
    run fulldoc "$COW" doctor --db "$FULL/f.db"
    check "8.8 doctor (analysing the run first): exit 0" test "$rc" = 0
    check "8.8 doctor: its findings" has "^  nothing to report$" "$WORK/fulldoc.out"
    # a build without export (COWTAIL_EXPORT=OFF) has no export to check
    if [ "${COW_EXPORT:-1}" = 1 ]; then
    run fullexp "$COW" export --db "$FULL/f.db" --jsonl "$WORK/fullexp"
    check "8.8 export --jsonl elsewhere: exit 0" test "$rc" = 0
    check "8.8 export --jsonl: the run exported" has '"run":"fullrun",.*"samples":3000' "$WORK/fullexp/runs.jsonl"
    run fullexp2 "$COW" export --db "$FULL/f.db" --jsonl "$FULL/exp"
    check "8.8 export --jsonl onto the full disk: exit 3" test "$rc" = 3
    check "8.8 ... and why" has "exp/runs.jsonl: cannot write: No space left on device" "$WORK/fullexp2.out"
    fi
    "$COW" runs --db "$FULL/f.db" > "$FULL/runs.txt" 2> "$WORK/fullout.err"
    check "8.8 output onto the full disk: exit 3" test $? = 3
    check "8.8 ... and why" has "^cowtail: cannot write output: No space left on device$" "$WORK/fullout.err"
    run fulling "$COW" ingest --db "$FULL/f.db" "$WORK/lock2"
    check "8.8 ingest: exit 3" test "$rc" = 3
    check "8.8 ingest: the disk named" has "its file system is full: free space and try again (commands that only read still work)" "$WORK/fulling.out"
    # the -wal file may hold committed transactions a checkpoint on the full
    # disk could not copy back: it is part of the database, never removed
    rm -f "$FULL/fill"
    check "8.8 afterwards: the database intact" test "$(sqlite3 "$FULL/f.db" 'PRAGMA integrity_check')" = ok
    check "8.8 and nothing of the full-disk analysis kept" \
        test "$(sqlite3 "$FULL/f.db" 'SELECT count(*) FROM analyses')" = 0
    umount "$FULL"
    # 8.9 a disk that filled during ingest's last checkpoint: the -wal and
    # -shm files stay (the WAL holds committed rows); a reader opens through
    # the existing -shm, and analyze and doctor still work without storing
    mount -t tmpfs -o size=2m cowtail-full "$FULL"
    "$COW" ingest -q --db "$FULL/f.db" "$d" > /dev/null 2>&1
    dd if=/dev/zero of="$FULL/fill" bs=4k > /dev/null 2>&1
    check "8.9 the -shm file is there" test -f "$FULL/f.db-shm"
    run fullan2 "$COW" analyze --db "$FULL/f.db" fullrun
    check "8.9 analyze: exit 0, shown" test "$rc" = 0
    check "8.9 analyze: the run analysed" has "^run fullrun: 3000 samples from" "$WORK/fullan2.out"
    check "8.9 analyze: says the disk is full" has "^$FULLMSG$" "$WORK/fullan2.out"
    run fulldoc2 "$COW" doctor --db "$FULL/f.db"
    check "8.9 doctor: exit 0" test "$rc" = 0
    rm -f "$FULL/fill"
    check "8.9 afterwards: every row there" \
        test "$(sqlite3 "$FULL/f.db" 'PRAGMA integrity_check; SELECT count(*) FROM samples; SELECT count(*) FROM analyses' | tr '\n' ' ')" = "ok 3000 0 "
    umount "$FULL"
else
    echo "SKIP 8.8, 8.9 full disk: cannot mount a tmpfs (needs root): not tested"
fi

finish
