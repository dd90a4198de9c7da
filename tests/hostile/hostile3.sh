#!/bin/bash
# hostile3.sh COWTAIL SOURCE_DIR -- hostile input, round three: paths,
# identities and limits. Inputs are built here at test time; each case
# failed before its fix (a file written through a link or over a
# neighbour, a run counted twice, a forged line on the terminal, ...).
set -u
COW=$(realpath "$1")
SRC=$2
. "$(dirname "$0")/../e2e/lib.sh"
. "$(dirname "$0")/lib.sh"
csv_rows() { # csv_rows N [FIRST]: N good latency rows
    local i; for ((i = 0; i < $1; i++)); do echo "$((EPOCH * 1000000 + (${2:-0} + i) * 1000)),5.0"; done
}
latency_run() { # latency_run FOLDER N: a run folder with N latency rows
    mkdir -p "$1"
    { echo timestamp_us,latency_us; csv_rows "$2"; } > "$1/latency.csv"
}
# a path of exactly N bytes: folders of 200 bytes, then a last name
long_path() {
    local p=$1 n=$2
    while [ $(( n - ${#p} )) -gt 260 ]; do p=$p/$(printf 'd%.0s' {1..200}); done
    mkdir -p "$p"
    printf '%s/%s' "$p" "$(head -c $(( n - ${#p} - 1 )) < /dev/zero | tr '\0' 'o')"
}

# --- 1 export --jsonl through a link planted at its temporary or final name
latency_run "$WORK/r1/run1" 100
"$COW" ingest -q --db "$WORK/r1.db" "$WORK/r1/run1" > /dev/null 2>&1
echo "keep me" > "$WORK/victim.txt"   # case 15 uses it too
if export_built; then
O=$(mk x1)
ln -s "$WORK/victim.txt" "$O/runs.jsonl.tmp"
ln -s "$WORK/victim.txt" "$O/samples.jsonl"
run x1 "$COW" export --db "$WORK/r1.db" --jsonl "$O" --samples
check "1 export with links planted: exit 0" test "$rc" = 0
check "1 ... the links' target untouched" test "$(cat "$WORK/victim.txt")" = "keep me"
check "1 ... samples.jsonl a file of its own, whole" test -f "$O/samples.jsonl" -a ! -L "$O/samples.jsonl" \
    -a "$(wc -l < "$O/samples.jsonl")" = 100
check "1 ... no temporary file left" test -z "$(ls "$O" | grep 'tmp-')"
check "10 ... the mark written last, one row per run, naming the tables" \
    has '^{"host":"[^"]*","run":"run1","export_version":[0-9]*,"tables":"runs,run_facts,servers,server_facts,phases,quantiles,deltas,exceedance,findings,checks,windows,answers,repl_syncs,inputs,samples"}$' "$O/exports.jsonl"
fi

# --- 2 a long --out: the outputs land inside it, never over a neighbour
# whose name is the path cut at 1,024 bytes
OUT=$(long_path "$WORK/long" 1040)
SIB=${OUT:0:1023}
echo "neighbour" > "$SIB"
run long1 "$COW" report --db "$WORK/r1.db" --out "$OUT"
check "2 report into a 1,040-byte --out: exit 0" test "$rc" = 0
check "2 ... the neighbour untouched" test "$(cat "$SIB")" = "neighbour"
check "2 ... summary.md and a chart in the folder" test -f "$OUT/summary.md" -a -n "$(ls "$OUT" 2>/dev/null | grep '\.png$')"
if export_built; then
OUT2=$(long_path "$WORK/long2" 1040)
SIB2=${OUT2:0:1023}
echo "neighbour" > "$SIB2"
run long2 "$COW" export --db "$WORK/r1.db" --jsonl "$OUT2"
check "2 export into a 1,040-byte --jsonl: exit 0" test "$rc" = 0
check "2 ... the neighbour untouched" test "$(cat "$SIB2")" = "neighbour"
check "2 ... runs.jsonl in the folder" test -s "$OUT2/runs.jsonl"
fi

# --- 15 report --force into a folder an earlier report wrote: its charts
# go (the new summary says which were drawn)
latency_run "$WORK/r15/alpha" 200
latency_run "$WORK/r15/beta" 200
"$COW" ingest -q --db "$WORK/r15a.db" "$WORK/r15/alpha" "$WORK/r15/beta" > /dev/null 2>&1
"$COW" ingest -q --db "$WORK/r15b.db" "$WORK/r15/alpha" > /dev/null 2>&1
O=$WORK/rep15
run rep15a "$COW" report --db "$WORK/r15a.db" --out "$O"
check "15 first report: a chart of beta" test -n "$(ls "$O" | grep 'beta.*\.png$')"
check "15 ... the marker lists index.html" grep -qxF index.html "$O/.cowtail-report"
check "15 ... the marker lists every chart, page, summary and workbook in the folder" \
    test -z "$(cd "$O" && for f in *.png *.md *.xlsx *.html; do grep -qxF "$f" .cowtail-report || echo "$f"; done)"
echo "mine" > "$O/notes.png.txt"
run rep15b "$COW" report --force --db "$WORK/r15b.db" --out "$O"
check "15 second report: exit 0" test "$rc" = 0
check "15 ... no chart of beta left" test -z "$(ls "$O" | grep 'beta')"
check "15 ... every chart in the folder is one summary.md names" \
    test -z "$(for f in "$O"/*.png; do grep -q "$(basename "$f")" "$O/summary.md" || echo "$f"; done)"
check "15 ... a file the report did not write stays" test "$(cat "$O/notes.png.txt")" = mine
printf 'x\n../victim.txt\n/etc/hostname\n' >> "$O/.cowtail-report"
cp "$WORK/victim.txt" "$WORK/victim.keep"
run rep15c "$COW" report --db "$WORK/r15b.db" --out "$O"
check "15 a marker naming ../victim.txt: nothing outside removed" test -f "$WORK/victim.txt"

# --- 9 merge into itself under another name: refused at once (it waited
# ten minutes on its own lock, then exit 3)
latency_run "$WORK/r9/run9" 100
"$COW" ingest -q --db "$WORK/r9.db" "$WORK/r9/run9" > /dev/null 2>&1
ln -s r9.db "$WORK/r9-link.db"
ln "$WORK/r9.db" "$WORK/r9-hard.db"
for other in "./r9.db" "$WORK/r9.db" "r9-link.db" "r9-hard.db"; do
    (cd "$WORK" && COWTAIL_LOCK_TIMEOUT=3s timeout "$T" "$COW" merge r9.db "$other") > "$WORK/m9.out" 2>&1
    rc=$?
    check "9 merge r9.db $other: exit 2" test "$rc" = 2
    check "9 ... named as the output" has "is the output database r9.db (the same file)" "$WORK/m9.out"
done

# --- 6 merge: a run whose latency.csv grew between two ingests (3,000
# rows in one database, 5,788 in the other) is not counted twice
latency_run "$WORK/r6full/run6" 5788
mkdir -p "$WORK/r6part/run6"
head -3001 "$WORK/r6full/run6/latency.csv" > "$WORK/r6part/run6/latency.csv"
# (one host named: runs of unknown host from two databases stay two runs)
"$COW" ingest -q --host h6 --db "$WORK/r6a.db" "$WORK/r6part/run6" > /dev/null 2>&1
"$COW" ingest -q --host h6 --db "$WORK/r6b.db" "$WORK/r6full/run6" > /dev/null 2>&1
run m6 "$COW" merge "$WORK/r6o.db" "$WORK/r6a.db" "$WORK/r6b.db"
check "6 merge of a grown file: exit 1" test "$rc" = 1
check "6 ... refused, with what to do" has "run 'run6': .*latency.csv refused: the run here holds a file of that name with other bytes (grown or changed since one of them was ingested)" "$WORK/m6.out"
check "6 ... 3,000 samples, not 8,788" test "$(sqlite3 "$WORK/r6o.db" 'SELECT count(*) FROM samples')" = 3000
run m6b "$COW" merge "$WORK/r6o.db" "$WORK/r6a.db"
check "6 merging the same again adds nothing: exit 0" test "$rc" = 0

# --- 7 a CRLF copy, or one with a row more, of latency.csv in the same
# run: its samples count once
latency_run "$WORK/r7/run7" 3000
sed 's/$/\r/' "$WORK/r7/run7/latency.csv" > "$WORK/r7/run7/latency-crlf.csv"
run i7 "$COW" ingest --db "$WORK/r7.db" "$WORK/r7/run7"
check "7 CRLF copy: exit 0" test "$rc" = 0
check "7 ... said to be a copy" has "a copy of .*latency-crlf.csv (the same 3000 samples in other bytes): not ingested again" "$WORK/i7.out"
check "7 ... 3,000 samples, not 6,000" test "$(sqlite3 "$WORK/r7.db" 'SELECT count(*) FROM samples')" = 3000
latency_run "$WORK/r7b/run7b" 3000
{ cat "$WORK/r7b/run7b/latency.csv"; csv_rows 1 3000; } > "$WORK/r7b/run7b/zz-latency.csv"
run i7b "$COW" ingest --db "$WORK/r7b.db" "$WORK/r7b/run7b"
check "7 a copy with a row more: exit 1" test "$rc" = 1
check "7 ... refused as a near-copy" has "zz-latency.csv: 3000 of its 3001 samples are those of .*latency.csv (a near-copy): not ingested" "$WORK/i7b.out"
check "7 ... 3,000 samples, not 6,001" test "$(sqlite3 "$WORK/r7b.db" 'SELECT count(*) FROM samples')" = 3000
latency_run "$WORK/r7c/run7c" 3000
{ echo timestamp_us,latency_us; csv_rows 3000 5000; } > "$WORK/r7c/run7c/latency-later.csv"
run i7c "$COW" ingest --db "$WORK/r7c.db" "$WORK/r7c/run7c"
check "7 two files of other samples: both land" test "$rc" = 0 -a "$(sqlite3 "$WORK/r7c.db" 'SELECT count(*) FROM samples')" = 6000

# --- 13 JSON: a key named twice and a non-finite number are refused with
# file:line in every JSON cowtail reads
latency_run "$WORK/r13/run13" 1000
"$COW" ingest -q --db "$WORK/r13.db" "$WORK/r13/run13" > /dev/null 2>&1
printf '{"max_p99_ms":1,\n "max_p99_ms":100}\n' > "$WORK/th-dup.json"
run th1 "$COW" check --db "$WORK/r13.db" --thresholds "$WORK/th-dup.json"
check "13 thresholds with a key twice: exit 2 (it passed on the second)" test "$rc" = 2
check "13 ... file:line and the key" has "th-dup.json:2: key \"max_p99_ms\" named twice in one object (first on line 1)" "$WORK/th1.out"
printf '{"max_p99_ms": 1e999}\n' > "$WORK/th-inf.json"
run th2 "$COW" check --db "$WORK/r13.db" --thresholds "$WORK/th-inf.json"
check "13 thresholds with an infinite limit: exit 2 (it passed with limit inf)" test "$rc" = 2
check "13 ... file:line and the number" has "th-inf.json:1: number 1e999 is beyond a double's range" "$WORK/th2.out"
latency_run "$WORK/r13b/run13b" 100
printf '{"label": "a",\n"host": "h1",\n"\\u006cabel": "b"}\n' > "$WORK/r13b/run13b/run.json"
run rj "$COW" ingest --db "$WORK/r13b.db" "$WORK/r13b/run13b"
check "13 run.json with a label twice (one escaped): refused" test "$rc" -ge 1
check "13 ... file:line and the key" has "run.json:3: key \"label\" named twice in one object (first on line 1)" "$WORK/rj.out"
check "13 ... nothing of the run landed" test "$(sqlite3 "$WORK/r13b.db" 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)" = 0
mkdir -p "$WORK/r13c"
sed '0,/"Count": 500,/s//"Count": 500, "C\\u006funt": 900000,/' "$SRC/tests/data/benchout/memtier_2.2_all_stats.json" > "$WORK/r13c/memtier.json"
run mt "$COW" ingest --db "$WORK/r13c.db" --parser memtier-json "$WORK/r13c/memtier.json"
check "13 memtier JSON with Count twice: refused" test "$rc" = 1
check "13 ... file:line and the key" has "memtier.json:[0-9]*: key \"Count\" named twice in one object" "$WORK/mt.out"
{ echo '[{"timestamp_us":1796028608000000,"latency_us":5},'
  echo ' {"timestamp_us":1796028608001000,"latency_us":5,"latency_us":9000},'
  echo ' {"timestamp_us":1796028608002000,"latency_us":5}]'; } > "$WORK/r13c/probe.json"
run lj "$COW" ingest --db "$WORK/r13d.db" "$WORK/r13c/probe.json"
check "13 latency JSON with a key twice: that object rejected, the others land" has "2 samples, 1 rejected" "$WORK/lj.out"
check "13 ... the line and why" has "probe.json:2: key \"latency_us\" named twice" "$WORK/lj.out"

# --- 14 a folder named "x<newline>all-good ... pass": no command prints a
# line that starts with the forged text (a newline in input is \x0A)
F14=$'x\nall-good   max_p99_ms   pass\t'
mkdir -p "$WORK/r14/$F14"
{ echo timestamp_us,latency_us; csv_rows 2000; echo "$((EPOCH * 1000000 + 9999000)),oops"; } > "$WORK/r14/$F14/latency.csv"
printf '{"max_p99_ms": 100}\n' > "$WORK/th14.json"
run t14i "$COW" ingest --db "$WORK/r14.db" "$WORK/r14/$F14"
run t14r "$COW" runs --db "$WORK/r14.db"
run t14c "$COW" check --db "$WORK/r14.db" --thresholds "$WORK/th14.json"
run t14a "$COW" analyze --db "$WORK/r14.db"
run t14d "$COW" doctor --db "$WORK/r14.db"
run t14j "$COW" rejects --db "$WORK/r14.db"
run t14m "$COW" merge "$WORK/r14m.db" "$WORK/r14.db"
run t14n "$COW" analyze --db "$WORK/r14.db" "$F14"
for c in i r c a d j m n; do
    check "14 $c: the label is shown escaped" has 'x\\x0Aall-good' "$WORK/t14$c.out"
    check "14 $c: no forged line" test -z "$(grep '^all-good' "$WORK/t14$c.out")"
done

# --- 12 export --jsonl of a run whose folder name holds byte 0xFF: every
# file valid UTF-8 (U+FFFD for the byte, as runs --json writes it)
if export_built; then
F12=$'caf\xff'
latency_run "$WORK/r12/$F12" 100
"$COW" ingest -q --db "$WORK/r12.db" "$WORK/r12/$F12" > /dev/null 2>&1
run x12 "$COW" export --db "$WORK/r12.db" --jsonl "$WORK/x12" --samples
check "12 export: exit 0" test "$rc" = 0
for f in "$WORK"/x12/*.jsonl; do
    check "12 $(basename "$f") is valid UTF-8" iconv -f UTF-8 -t UTF-8 -o /dev/null "$f"
done
check "12 ... the byte as U+FFFD" has $'"run":"caf\xef\xbf\xbd"' "$WORK/x12/runs.jsonl"
fi

# --- 3 memtier JSON whose keys are escaped ("\u0070" for p): the line
# finder seeks an index of the unescaped keys (8,000 seconds x 4 escaped
# keys took 75 s, rescanning the rest of the file per key)
mt_json() { # mt_json SECONDS LASTKEY: a memtier 2.x JSON, keys escaped
    awk -v n="$1" -v last="$2" 'BEGIN {
        s = 1738587731532
        printf "{\"configuration\": {\"clients\": 5},\n\"ALL STATS\": {\n"
        printf "\"Runtime\": {\"Start time\": %.0f, \"Finish time\": %.0f, \"Total duration\": %.0f, \"Time unit\": \"MILLISECONDS\"},\n", s, s + n * 1000, n * 1000
        printf "\"Sets\": {\"Count\": %d, \"Ops/sec\": 10, \"Average Latency\": 0.4,\n\"Time-Serie\": {\n", n * 10
        for (i = 0; i < n; i++)
            printf "%s\"%d\": {\"\\u0043ount\": 10, \"Average Latency\": 0.4, \"\\u0070\\u0035\\u0030.00\": 0.3, \"\\u0070\\u0039\\u0039.00\": 0.9, \"\\u0070\\u0039\\u0039.90\": 1.0}\n", i ? "," : "", (last && i == n - 1) ? last : i
        printf "}}}}\n" }'
}
mkdir -p "$WORK/r3"
mt_json 8000 0 > "$WORK/r3/memtier.json"
start=$(date +%s)
run mt3 "$COW" ingest --db "$WORK/r3.db" --parser memtier-json "$WORK/r3/memtier.json"
check "3 8,000 seconds of escaped keys: exit 0" test "$rc" = 0
check "3 ... every second landed" test "$(sqlite3 "$WORK/r3.db" 'SELECT count(*) FROM intervals')" = 8000
check "3 ... in linear time (< 20 s even under ASan)" test $(( $(date +%s) - start )) -lt 20

# --- 4 a Time-Serie key of 31000000 in a run that says it lasted 5 s: the
# series is no longer than its run (it made 31 M rows and a 961 MB database)
mt_json 5 31000000 > "$WORK/r3/ts.json"
run mt4 "$COW" ingest --db "$WORK/r4.db" --parser memtier-json "$WORK/r3/ts.json"
check "4 a second beyond the run: that entry rejected (exit 1)" test "$rc" = 1
check "4 ... with the line and why" has "ts.json:10: second beyond the run's own length" "$WORK/mt4.out"
check "4 ... 4 seconds landed, not 31 M" test "$(sqlite3 "$WORK/r4.db" 'SELECT count(*) FROM intervals')" = 4

# --- 4 the file-span query at the end of a default ingest: no memory per
# row (a GROUP BY over a UNION of every timed row held ~100 bytes a row in
# temporary storage: 865 MB for 8 M rows, 93 MB with -q, which skips it)
if [ -x /usr/bin/time ] && ! ldd "$COW" 2>/dev/null | grep -q libasan; then
    mkdir -p "$WORK/r4m/run"
    awk 'BEGIN { print "timestamp_ms,used_memory"; for (i = 0; i < 600000; i++) printf "%.0f,%d\n", 1796028608000 + i, 1000000 + i % 1000 }' > "$WORK/r4m/run/memory.csv"
    quiet=$( { /usr/bin/time -f %M "$COW" ingest -q --db "$WORK/r4q.db" "$WORK/r4m/run" > /dev/null; } 2>&1 | tail -1)
    full=$( { /usr/bin/time -f %M "$COW" ingest --db "$WORK/r4f.db" "$WORK/r4m/run" > "$WORK/r4f.out"; } 2>&1 | tail -1)
    check "4 600k memory rows: the spans cost < 20 MB more than -q ($quiet KB -q, $full KB)" \
        test $(( full - quiet )) -lt 20000
    # --- note: a JSON array of samples is read one element at a time, never
    # a tree in memory (a 94 MB array peaked at 806 MB)
    mkdir -p "$WORK/rarr/run"
    awk -v e="$EPOCH" 'BEGIN { printf "["; for (i = 0; i < 400000; i++) printf "%s{\"timestamp_us\":%.0f,\"latency_us\":5}\n", i ? "," : "", e * 1000000 + i * 100; print "]" }' > "$WORK/rarr/run/probe.json"
    kb=$(( $(stat -c %s "$WORK/rarr/run/probe.json") / 1024 ))
    peak=$( { /usr/bin/time -f %M "$COW" ingest -q --db "$WORK/rarr.db" "$WORK/rarr/run" > /dev/null; } 2>&1 | tail -1)
    check "note: a ${kb} KB JSON array costs under 3 times its size above a -q ingest of 600k memory rows ($peak KB vs $quiet KB)" \
        test $(( peak - quiet )) -lt $(( kb * 3 ))
    check "... every sample landed" test "$(sqlite3 "$WORK/rarr.db" 'SELECT count(*) FROM samples')" = 400000
else
    echo "SKIP 4 and the note on memory: /usr/bin/time not installed, or an ASan build"
fi

# --- 5 a yearless log with --log-year: a child's line 20 ms out of order
# across midnight of 31 Jan (after a line of 1 Feb) keeps the year (the
# window was 31,536,002 s long and its events a year later)
mkdir -p "$WORK/r5/run"
printf '4711:M 31 Jan 23:59:58.000 * Background saving started by pid 4800\n4711:M 01 Feb 00:00:00.010 * 100 changes in 60 seconds. Saving...\n4800:C 31 Jan 23:59:59.990 * DB saved on disk\n4711:M 01 Feb 00:00:01.000 * Background saving terminated with success\n' > "$WORK/r5/run/redis.log"
{ echo timestamp_us,latency_us; for ((i = 0; i < 100; i++)); do echo "$((1738367990000000 + i * 100000)),5.0"; done; } > "$WORK/r5/run/latency.csv"
run y5 "$COW" ingest --db "$WORK/r5.db" --log-year 2025 "$WORK/r5/run"
check "5 out-of-order line across a month: exit 0" test "$rc" = 0
check "5 ... the log spans 3 s, in 2025" test "$(sqlite3 "$WORK/r5.db" "SELECT (max(t_us) - min(t_us)) / 1000000, strftime('%Y', max(t_us) / 1000000, 'unixepoch') FROM events")" = "3|2025"
printf '4711:M 31 Dec 23:59:58.000 * Background saving started by pid 4800\n4800:C 01 Jan 00:00:00.990 * DB saved on disk\n4711:M 01 Jan 00:00:01.000 * Background saving terminated with success\n' > "$WORK/r5/run/redis.log"
{ echo timestamp_us,latency_us; for ((i = 0; i < 100; i++)); do echo "$((1735689590000000 + i * 100000)),5.0"; done; } > "$WORK/r5/run/latency.csv"
run y5b "$COW" ingest --db "$WORK/r5b.db" --log-year 2024 "$WORK/r5/run"
check "5 31 Dec -> 1 Jan still rolls: 3 s, ending in 2025" test "$(sqlite3 "$WORK/r5b.db" "SELECT (max(t_us) - min(t_us)) / 1000000, strftime('%Y', max(t_us) / 1000000, 'unixepoch') FROM events")" = "3|2025"

# --- 11 a replica that starts after 70 BGSAVE children in one log: still
# a server (the log parser kept 64 processes)
mkdir -p "$WORK/r11/run"
awk 'BEGIN {
    printf "100:M 03 Feb 2025 14:00:00.000 * Running mode=standalone, port=7301.\n"
    for (i = 0; i < 70; i++) { s = 1 + i
        printf "100:M 03 Feb 2025 14:%02d:%02d.000 * Background saving started by pid %d\n", int(s / 60), s % 60, 1000 + i
        printf "%d:C 03 Feb 2025 14:%02d:%02d.200 * DB saved on disk\n", 1000 + i, int(s / 60), s % 60
        printf "100:M 03 Feb 2025 14:%02d:%02d.400 * Background saving terminated with success\n", int(s / 60), s % 60 }
    printf "2000:S 03 Feb 2025 14:05:00.000 * Running mode=standalone, port=7302.\n"
    printf "2000:S 03 Feb 2025 14:05:00.100 * Connecting to MASTER 127.0.0.1:7301\n"
    printf "2000:S 03 Feb 2025 14:05:00.200 * MASTER <-> REPLICA sync started\n" }' > "$WORK/r11/run/redis.log"
{ echo timestamp_us,latency_us; for ((i = 0; i < 400; i++)); do echo "$((1738591200000000 + i * 1000000)),5.0"; done; } > "$WORK/r11/run/latency.csv"
run p11 "$COW" ingest --db "$WORK/r11.db" "$WORK/r11/run"
check "11 70 children, then a replica: exit 0" test "$rc" = 0
check "11 ... the replica is a server" test "$(sqlite3 "$WORK/r11.db" "SELECT group_concat(role || ':' || pid, ' ') FROM servers")" = "primary:100 replica:2000"
check "11 ... every child kept" test "$(sqlite3 "$WORK/r11.db" "SELECT count(*) FROM procs WHERE parent = 100")" = 70

# --- note: a unitless timestamp holding CLOCK_MONOTONIC nanoseconds (20
# days of uptime) read as epoch microseconds (a 12 s capture became
# 11,998 s in 2024, exit 0): refused, asking for the unit
mkdir -p "$WORK/rmono/run"
{ echo timestamp,latency_us; for ((i = 0; i < 1200; i++)); do echo "$((1728000000000000 + i * 10000000)),5.0"; done; } > "$WORK/rmono/run/latency.csv"
run mono "$COW" ingest --db "$WORK/rmono.db" "$WORK/rmono/run"
check "note: monotonic-looking unitless stamps: refused" test "$rc" = 1
check "... asking for the unit" has "time column 'timestamp' has no unit and starts at 1728000000000000: epoch microseconds, or a monotonic clock in nanoseconds (20.0 days of uptime)? Name the unit" "$WORK/mono.out"
touch -d @1728000012 "$WORK/rmono/run/latency.csv"
run mono2 "$COW" ingest --db "$WORK/rmono2.db" "$WORK/rmono/run"
check "... the same file written 12 s after its first stamp: epoch us" test "$rc" = 0

finish
