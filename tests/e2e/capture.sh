#!/bin/bash
# capture.sh COWTAIL SAMPLES DATA -- end-to-end: run discovery (subfolders join
# the run that encloses them), the tree walk's safety (links, FIFOs, loops,
# unreadable entries) and files that are not capture files at all. The
# trees are built here from a real sample.
set -u
COW=$1
SAMPLES=$2
DATA=$3
. "$(dirname "$0")/lib.sh"
SRC=$SAMPLES/fullsync-disk

# --- the bundled sample in the subfolder layout is one run
"$COW" ingest --db "$WORK/s.db" "$SRC" > "$WORK/s.out" 2> "$WORK/s.err"
check "subfolder sample exits 0" test $? = 0
check "one run" has "into 1 run:" "$WORK/s.out"
check "info/ joined the run" has "  joined: info/ (no latency capture, primary log or run.json of its own)" "$WORK/s.out"
check "replica/ joined the run" has "  joined: replica/" "$WORK/s.out"
check "smaps_child/ joined the run" has "  joined: smaps_child/" "$WORK/s.out"
check "joined files shown by their path" has "  replica/replica.log  *redis-log" "$WORK/s.out"
check "ingest says which servers it told apart" has "  servers: primary pid 1666 port 7301 (62 files), replica pid 1678 port 7302 (1 file)" "$WORK/s.out"
"$COW" runs --db "$WORK/s.db" --json > "$WORK/s.json"
check "all 70 files on the run" test "$(json_field "$WORK/s.json" fullsync-disk files)" = 70
tr -d '\n\t ' < "$WORK/s.json" > "$WORK/s.flat"
check "servers: the primary from INFO, its log and CONFIG" has '"servers":\[{"role":"primary","pid":1666,"port":7301,"version":"7.0.15","run_id":"8be20f3d5079c5c92068a3c14d2dd67abbfadadc","files":62,"paths":\["config.txt","latency-doctor.txt",' "$WORK/s.flat"
check "servers: the primary's INFO polls, smaps and its child's smaps" has '"redis.log","smaps_rollup-1796028674638.txt",.*"info/info-1796028671617.txt",.*"smaps_child/smaps_rollup-child-1796028676453.txt"\],"how":"INFOdumps51,logpid1666,CONFIGport","facts":{' "$WORK/s.flat"
check "servers: the replica from replica/replica.log, port from its banner" has '{"role":"replica","pid":1678,"port":7302,"version":"7.0.15","run_id":null,"files":1,"paths":\["replica/replica.log"\],"how":"logpid1678","facts":{"server_kind":{"value":"redis","src":"[^"]*replica/replica.log:[0-9]*"}' "$WORK/s.flat"
check "servers: host and client files belong to no server" test "$(python3 -c 'import json,sys; print("\n".join(p for r in json.load(open(sys.argv[1])) for v in r["servers"] for p in v["paths"]))' "$WORK/s.json" | grep -c 'sysctl.txt\|latency.csv\|memory.csv')" = 0
check "servers: stored, one row each" test "$(sqlite3 "$WORK/s.db" "SELECT group_concat(seq || ':' || role || ':' || pid, ' ') FROM servers")" = "1:primary:1666 2:replica:1678"
check "servers: the log split per pid, the fork child under its parent" test "$(sqlite3 "$WORK/s.db" "SELECT group_concat(x.server || ':' || x.pid, ' ') FROM server_files x JOIN files f ON f.id = x.file WHERE f.path LIKE '%.log'")" = "1:1666 1:1844 2:1678"

# --- the replica's own config differs: the doctor reads the primary's
R=$WORK/twocfg/fullsync-disk
mkdir -p "$WORK/twocfg"
cp -r "$SRC" "$R"
printf 'port 7302\ndisable-thp no\nrepl-diskless-sync yes\nlatency-monitor-threshold 0\nsave ""\n' > "$R/replica/replica.conf"
# and the replica's own INFO, polled last, with a COW of its own
mkdir -p "$R/replica_info"
sed -e 's/^process_id:1666/process_id:1678/' -e 's/^tcp_port:7301/tcp_port:7302/' \
    -e 's/^run_id:8be2/run_id:aaaa/' -e 's/^role:master/role:slave/' \
    -e 's/^rdb_last_cow_size:.*/rdb_last_cow_size:999999999/' \
    -e 's/^server_time_usec:1796028685175058/server_time_usec:1796028685500000/' \
    "$R/info/info-1796028685165.txt" > "$R/replica_info/info-1796028685500.txt"
"$COW" ingest --db "$WORK/t.db" "$R" > "$WORK/t.out" 2>&1
check "two configs: exit 0" test $? = 0
"$COW" runs --db "$WORK/t.db" --json | tr -d '\n\t ' > "$WORK/t.flat"
check "two configs: replica.conf and replica_info/ are the replica's (pid, port)" has '{"role":"replica","pid":1678,"port":7302,"version":"7.0.15","run_id":"aaaa0f3d5079c5c92068a3c14d2dd67abbfadadc","files":3,"paths":\["replica/replica.conf","replica/replica.log","replica_info/info-1796028685500.txt"\],"how":"INFOdumps1,logpid1678,CONFIGport","facts":{' "$WORK/t.flat"
"$COW" doctor --db "$WORK/t.db" fullsync-disk > "$WORK/t.doc" 2>&1
check "two configs: disable-thp is the primary's, and said whose" has "disable-thp  *yes  (.*fullsync-disk/config.txt:51, the primary on port 7301)" "$WORK/t.doc"
check "two configs: the replica's value is not read as the primary's" test "$(grep -c 'replica.conf\|replica_info' "$WORK/t.doc")" = 0
check "two configs: COW is the primary's, from its last INFO" has "rdb_last_cow_size  *152014848 bytes  (.*/info/info-1796028685165.txt:107)" "$WORK/t.doc"
"$COW" doctor --db "$WORK/s.db" fullsync-disk > "$WORK/s.doc" 2>&1
check "COW from info/ on the run" has "rdb_last_cow_size .*info/info-1796028685165.txt" "$WORK/s.doc"

# --- a tree: a run with subfolders at any depth, a sibling run, a folder
# with no run of its own beside them
T=$WORK/tree
mkdir -p "$T/bgsave/info/deep" "$T/bgsave/smaps_child" "$T/steady" "$T/extras/proc"
cp "$SRC/latency.csv" "$SRC/redis.log" "$T/bgsave/"
cp "$SRC"/info/info-1796028685165.txt "$T/bgsave/info/deep/"
cp "$SRC"/smaps_child/* "$T/bgsave/smaps_child/"
cp "$SAMPLES/steady/latency.csv" "$T/steady/"
cp "$SRC/sysctl.txt" "$T/extras/proc/"
"$COW" ingest --db "$WORK/t.db" "$T" > "$WORK/t.out" 2> "$WORK/t.err"
check "tree exits 0" test $? = 0
check "three runs" has "into 3 runs:" "$WORK/t.out"
check "a folder two levels down joins" has "  joined: info/deep/" "$WORK/t.out"
check "a folder with no run below is one run" has "^run extras " "$WORK/t.out"
check "its subfolder joined it" has "  joined: proc/" "$WORK/t.out"
check "info/ is no run" test "$(grep -c '^run .*info' "$WORK/t.out")" = 0

# --- a folder with no run at all below it, named: one run as a whole
mkdir -p "$WORK/only/info" && cp "$SRC"/info/info-17960286851*.txt "$WORK/only/info/"
"$COW" ingest --db "$WORK/o.db" "$WORK/only" > "$WORK/o.out" 2>&1
check "no run below: one run" has "into 1 run:" "$WORK/o.out"

# --- run.json "files" maps a name to a parser and a role
mkdir -p "$WORK/mapped"
cp "$SAMPLES/steady/latency.csv" "$WORK/mapped/probe.dat"
printf '{"label":"mapped","files":{"probe.dat":{"parser":"latency-csv","role":"primary"}}}\n' > "$WORK/mapped/run.json"
"$COW" ingest --db "$WORK/m.db" "$WORK/mapped" > "$WORK/m.out" 2>&1
check "mapped file read with its parser" has "probe.dat  *latency-csv  *5788 samples" "$WORK/m.out"
printf '{"files":{"x":{"parser":"nope"}}}\n' > "$WORK/mapped/run.json"
"$COW" ingest --db "$WORK/m2.db" "$WORK/mapped" > "$WORK/m2.out" 2> "$WORK/m2.err"
check "an unknown parser in run.json: exit 1" test $? = 1
check "named in the message" has 'run.json: "files": "x": no parser named "nope".*the run is skipped' "$WORK/m2.err"

# --- a bad run.json skips its run; the rest of the batch lands
mkdir -p "$WORK/batch/a" "$WORK/batch/b"
cp "$SAMPLES/steady/latency.csv" "$WORK/batch/a/"
cp "$SAMPLES/steady/latency.csv" "$WORK/batch/b/"
printf '{"label": ' > "$WORK/batch/a/run.json"
"$COW" ingest --db "$WORK/b.db" "$WORK/batch" > "$WORK/b.out" 2> "$WORK/b.err"
check "bad run.json: exit 1" test $? = 1
check "said with the file" has "a/run.json:1: run.json is not a JSON object.*the run is skipped" "$WORK/b.err"
check "the other run landed" has "into 1 run: 5788 records" "$WORK/b.out"

# --- links, FIFOs, loops
L=$WORK/links
mkdir -p "$L/run" "$WORK/outside"
cp "$SAMPLES/steady/latency.csv" "$L/run/"
cp "$SRC/sysctl.txt" "$WORK/outside/secret.txt"
ln -s "$WORK/outside/secret.txt" "$L/run/sysctl.txt"
ln -s /proc/meminfo "$L/run/meminfo"
ln -s .. "$L/run/loop"
mkfifo "$L/run/fifo.csv"
timeout 20 "$COW" ingest --db "$WORK/l.db" "$L" > "$WORK/l.out" 2> "$WORK/l.err"
check "links skipped by default: exit 0" test $? = 0
check "a link is said and skipped" has "run/sysctl.txt: symbolic link not followed" "$WORK/l.out"
check "a FIFO in the tree is skipped" has "fifo.csv: not a regular file (a FIFO): skipped" "$WORK/l.out"
check "only the latency file landed" has "ingested 1 file into 1 run" "$WORK/l.out"
timeout 20 "$COW" ingest --follow-symlinks --db "$WORK/l2.db" "$L" > "$WORK/l2.out" 2> "$WORK/l2.err"
check "--follow-symlinks with escapes: exit 1" test $? = 1
check "outside the tree refused" has "run/sysctl.txt: symbolic link leads outside the tree" "$WORK/l2.err"
check "/proc refused" has "run/meminfo: symbolic link leads into /proc: skipped" "$WORK/l2.err"
check "loop reported" has "symbolic link loop" "$WORK/l2.err"
check "the rest landed" has "ingested 1 file into 1 run" "$WORK/l2.out"
mkdir -p "$L/run/sub" && cp "$SRC/thp-enabled.txt" "$L/run/sub/" && rm "$L/run/sysctl.txt" "$L/run/meminfo" "$L/run/loop"
ln -s sub/thp-enabled.txt "$L/run/thp-link.txt"
timeout 20 "$COW" ingest --follow-symlinks --db "$WORK/l3.db" "$L" > "$WORK/l3.out" 2>&1
check "a link inside the tree is followed" has "thp-link.txt  *procfs" "$WORK/l3.out"
timeout 20 "$COW" ingest --db "$WORK/f.db" "$L/run/fifo.csv" > "$WORK/f.out" 2> "$WORK/f.err"
check "a FIFO named on the command line does not block: exit 1" test $? = 1
check "and says why" has "fifo.csv: not a regular file" "$WORK/f.err"

# --- files that are not capture files
mkdir -p "$WORK/junk"
: > "$WORK/junk/latency.csv"
printf 'ab\000cd\001' > "$WORK/junk/random.bin"
printf 'caf\351 au lait\n' > "$WORK/junk/latin1.txt"
"$COW" ingest --db "$WORK/j.db" "$WORK/junk/latency.csv" > "$WORK/j1.out" 2> "$WORK/j1.err"
check "an empty file named: exit 1" test $? = 1
check "empty file said" has "latency.csv  *skipped: empty file" "$WORK/j1.out"
check "nothing landed, said" has "junk/latency.csv: named on the command line, but nothing of it landed" "$WORK/j1.err"
"$COW" ingest --db "$WORK/j.db" "$WORK/junk/random.bin" > "$WORK/j2.out" 2>&1
check "random bytes named: exit 1" test $? = 1
check "NUL byte offset" has "random.bin  *skipped: not text: NUL byte at offset 2" "$WORK/j2.out"
"$COW" ingest --db "$WORK/j.db" "$WORK/junk/latin1.txt" > "$WORK/j3.out" 2>&1
check "invalid UTF-8 named: exit 1" test $? = 1
check "invalid UTF-8 at line:col" has "latin1.txt  *skipped: not text: invalid UTF-8 at line 1, column 4" "$WORK/j3.out"
mkdir -p "$WORK/meta"
cp "$SAMPLES/steady/latency.csv" "$WORK/meta/"
printf '{\n  "tool": "loadgen",\n  "start_time": "2026-11-30T08:50:00Z",\n  "duration": 12,\n  "latency": {"unit": "us"}\n}\n' > "$WORK/meta/tool.json"
"$COW" ingest --db "$WORK/meta.db" "$WORK/meta" > "$WORK/meta.out" 2>&1
check "a tool's JSON beside the capture: exit 0" test $? = 0
check "is not recognised, not refused" has "tool.json  *skipped: no parser recognises it" "$WORK/meta.out"
"$COW" doctor --db "$WORK/meta.db" meta > "$WORK/meta.doc" 2>&1
check "and raises no refusal" test "$(grep -c ingest_refusals "$WORK/meta.doc")" = 0

# --- in flight: the AOF rewrite's 12.4 ms probe, sent 4.2 ms before the
# window opened, is the window's (verdict lift), not the baseline's maximum
"$COW" ingest -q --db "$WORK/aof.db" "$SAMPLES/aof-rewrite" > /dev/null 2>&1
"$COW" analyze --db "$WORK/aof.db" aof-rewrite > "$WORK/aof.if" 2>&1
"$COW" analyze --db "$WORK/aof.db" --assign send aof-rewrite > "$WORK/aof.send" 2>&1
check "in flight: the baseline max is 4.183 ms" has "^  baseline [ *].* 1492 .* 4.183$" "$WORK/aof.if"
check "in flight: the window holds 754 samples, the 12.379 ms probe among them" has "^  aof-rewrite#1 .* 754 .* 12.379$" "$WORK/aof.if"
# the two edges alike: the 16.114 ms probe, still in flight when the
# rewrite ended, completed in after and is after's (no longer the window's)
check "in flight: the probe in flight at the window's end is after's" has "^  after .* 16.114$" "$WORK/aof.if"
# its baseline moves around the window (p99 0.977 ms before, 3.812 after):
# against the baseline on both sides the tail test cannot tell, and says
# with what numbers; the block test says how long a baseline it needs
check "in flight: p99.9 ?, the tail test's numbers" has "p99.9  *+4.876 (cannot tell: the tail test: 2 vs 3 samples beyond the pooled p99.87, as 2.0 vs 3.0 independent ones (clusters of 1.0), p=0.24; the block test needs 10000 baseline samples (20 blocks of 500), has 2984) .* ?" "$WORK/aof.if"
check "in flight: the caveat" has "the baseline is not stationary around aof-rewrite#1: p99 0.977 ms before the window, 3.812 ms after it" "$WORK/aof.if"
check "--assign send: p99.9 cannot tell" has "p99.9  *+5.801 (cannot tell: the tail test: 2 vs 3 samples" "$WORK/aof.send"
check "--assign send: the probe in the baseline" has "^  baseline [ *].* 1493 .* 12.379$" "$WORK/aof.send"

# --- clocks: a log in local time UTC+2 without log_tz. With INFO beside
# it the zone is inferred and the windows are those of log_tz given;
# without any pair the run is refused until the zone is given.
C=$WORK/clk
mkdir -p "$C/utc2" "$C/given" "$C/nopair"
for d in utc2 given nopair; do cp "$SAMPLES"/bgsave-t1/* "$C/$d/"; done
for d in utc2 nopair; do
    sed -i 's/^\([0-9]*:[A-Z] [0-9]* [A-Z][a-z]* [0-9]* \)08:/\110:/' "$C/$d/redis.log"
    sed -i '/"log_tz"/d' "$C/$d/run.json"
done
rm "$C/nopair/info.txt"
for d in utc2 given nopair; do sed -i "s/\"label\": \"bgsave-t1\"/\"label\": \"$d\"/" "$C/$d/run.json"; done
"$COW" ingest --db "$WORK/c.db" "$C" > "$WORK/c.out" 2> "$WORK/c.err"
check "a log that does not match its samples: ingest exits 1" test $? = 1
check "the zone inferred, and from what" has "clock: .*utc2/redis.log: local time is UTC+02:00, from INFO rdb_last_save_time 1796028629 (.*info.txt:4820) vs the save's end at .*redis.log:12" "$WORK/c.out"
check "no pair: the likely zone and the flag named" has "nopair/redis.log: no pair of a UTC source and a log line names the same instant, and the log's windows fall outside the samples' span, as if its local time were UTC+02:00: give the zone with --log-tz +02:00" "$WORK/c.err"
"$COW" analyze --db "$WORK/c.db" --json utc2 given > "$WORK/c.json"
tr -d '\n\t ' < "$WORK/c.json" | grep -o '"label":"[a-z0-9#-]*","kind":"[a-z_]*","t0_us":[0-9]*,"t1_us":[0-9]*' > "$WORK/c.win"
check "six phases (3 per run)" test "$(wc -l < "$WORK/c.win")" = 6
check "windows inferred = windows given" test "$(head -3 "$WORK/c.win")" = "$(tail -3 "$WORK/c.win")"
"$COW" analyze --db "$WORK/c.db" nopair > "$WORK/c.an" 2>&1
check "the unmatched run is not analysed: exit 1" test $? = 1
check "and says why" has "run nopair not analysed: .*--log-tz +02:00" "$WORK/c.an"
"$COW" doctor --db "$WORK/c.db" nopair > "$WORK/c.doc" 2>&1
check "the doctor: clock_mismatch for the log" has "\[warning\] clock_mismatch: redis.log: the log's windows fall outside the samples' span, as if its local time were UTC+02:00: the run is not analysed" "$WORK/c.doc"
check "with the zone to give" has "give the log's zone with --log-tz +02:00" "$WORK/c.doc"
"$COW" ingest --db "$WORK/c.db" --log-tz +02:00 "$C/nopair" > /dev/null 2>&1
"$COW" analyze --db "$WORK/c.db" --json nopair > "$WORK/c2.json" 2>&1
check "the zone given later settles it" test $? = 0
# its own fork (LATENCY HISTORY fork, 5 ms) opens it 6 ms before the start line
check "bgsave#1 ends where the given zone puts it" has '"label":"bgsave#1","kind":"bgsave","t0_us":1796028627616000,"t1_us":1796028629589000' <(tr -d '\n\t ' < "$WORK/c2.json")

# --- a log taken as UTC (no pair) whose windows a whole-hour offset would
# place better: an unmatched save start inside the samples, the real save
# an hour later as read. Kept as UTC, said at ingest and by the doctor.
D=$WORK/doubt/dbt
mkdir -p "$D"
cp "$SAMPLES"/bgsave-t1/* "$D/"
rm "$D/info.txt"
sed -i -e '/"log_tz"/d' -e 's/"label": "bgsave-t1"/"label": "dbt"/' "$D/run.json"
sed -i 's/^\([0-9]*:[A-Z] [0-9]* [A-Z][a-z]* [0-9]* \)08:/\109:/' "$D/redis.log"
sed -i '1i 32580:M 30 Nov 2026 08:50:25.000 * Background saving started by pid 32700' "$D/redis.log"
"$COW" ingest --db "$WORK/dbt.db" "$WORK/doubt" > "$WORK/dbt.out" 2>&1
check "zone in doubt: ingest says so" has "clock: .*dbt/redis.log: local time: UTC assumed: no --log-tz / run.json log_tz and no pair of a UTC source and a log line; but UTC+01:00 would place 2 of the log's window stamps inside the samples' span instead of 1: give --log-tz if the log is in local time" "$WORK/dbt.out"
"$COW" doctor --db "$WORK/dbt.db" dbt > "$WORK/dbt.doc" 2>&1
check "zone in doubt: the doctor says so" has "\[warning\] clock_mismatch: redis.log: UTC assumed for the log (no UTC pair), but UTC+01:00 would place 2 of its window stamps inside the samples' span instead of 1" "$WORK/dbt.doc"

# --- a log whose every line carries its zone (docker logs -t, -04:00):
# settled by its own stamps, no "UTC assumed" note, no clock finding
mkdir -p "$WORK/zoned/run"
printf '%s\n' \
  '2026-12-02T03:10:00.100000000-04:00 4410:M 02 Dec 2026 03:10:00.100 * Ready to accept connections' \
  '2026-12-02T03:10:00.297000000-04:00 4410:M 02 Dec 2026 03:10:00.297 * Background saving started by pid 4511' \
  '2026-12-02T03:10:05.140000000-04:00 4410:M 02 Dec 2026 03:10:05.140 * Background saving terminated with success' \
  > "$WORK/zoned/run/redis.log"
"$COW" ingest --db "$WORK/zoned.db" "$WORK/zoned/run" > "$WORK/zoned.out" 2>&1
check "zoned stamps: the parser says they settle the zone" has "settled by the zoned stamps of the line prefixes" "$WORK/zoned.out"
check "zoned stamps: no 'UTC assumed' clock note" test "$(grep -c 'UTC assumed' "$WORK/zoned.out")" = 0
check "zoned stamps: the clock recorded as settled by them" test \
    "$(sqlite3 "$WORK/zoned.db" "SELECT decided FROM clocks")" = zoned
"$COW" doctor --db "$WORK/zoned.db" > "$WORK/zoned.doc" 2>&1
check "zoned stamps: no clock finding" test "$(grep -c 'clock_mismatch\|UTC assumed' "$WORK/zoned.doc")" = 0

# --- two files of one run on other clocks than the samples': a memory
# series in local time (UTC+2) and an INFO series stamped 3 h late. The
# samples' clock is the reference; both are noted, and the doctor says it.
K=$WORK/skew/st
mkdir -p "$K"
cp "$SAMPLES"/steady/* "$K/"
awk -F, 'NR == 1 { print; next } { printf "%.0f,%s\n", $1 + 7200000, $2 }' \
    "$SAMPLES/steady/memory.csv" > "$K/memory.csv"
sed -i -e 's/^# ts=\([0-9]*\)/echo "# ts=$((\1 + 10800000))"/e' -e '/^server_time_usec/d' "$K/info.txt"
"$COW" ingest --db "$WORK/skew.db" "$K" > "$WORK/skew.out" 2>&1
check "clocks hours apart: a note, not a refusal (exit 0)" test $? = 0
check "the INFO series: both spans and a whole-hour offset" has "^  clock: .*skew/st/info.txt (2026-11-30T11:50:07Z .. 2026-11-30T11:50:20Z) lies 2 h 59 min from .*skew/st/latency.csv (2026-11-30T08:50:08Z .. 2026-11-30T08:50:20Z): likely offset +03:00 (a whole-hour offset: a clock in local time?); its stamps are kept as they are (cowtail doctor: clock_mismatch)$" "$WORK/skew.out"
check "the memory series in local time" has "^  clock: .*skew/st/memory.csv (2026-11-30T10:50:07Z .. 2026-11-30T10:50:20Z) lies 1 h 59 min from .*latency.csv .*: likely offset +02:00 (a whole-hour offset" "$WORK/skew.out"
check "the files on the samples' clock are not named" test "$(grep -c '^  clock:' "$WORK/skew.out")" = 2
"$COW" doctor --db "$WORK/skew.db" --json steady > "$WORK/skew.json" 2>&1
tr '\n\t' '  ' < "$WORK/skew.json" | sed 's/} *, *{ *"rule"/}\n{"rule"/g' | grep '"rule": *"clock_mismatch"' > "$WORK/skew.f"
check "the doctor: one clock_mismatch finding, a warning" test "$(grep -c '"severity": *"warning"' "$WORK/skew.f")" = 1
check "its title" has "2 files not on the samples' clock: info.txt lies 3.0 h from latency.csv (likely offset +03:00)" "$WORK/skew.f"
check "its evidence: the file's span" has '"metric": *"file span", *"value": *"2026-11-30T10:50:07Z .. 2026-11-30T10:50:20Z", *"source": *"[^"]*skew/st/memory.csv"' "$WORK/skew.f"
check "and the samples'" has '"metric": *"samples. span", *"value": *"2026-11-30T08:50:08Z .. 2026-11-30T08:50:20Z", *"source": *"[^"]*skew/st/latency.csv"' "$WORK/skew.f"
# without samples, the INFO series is the reference
N=$WORK/skew2/noreq
mkdir -p "$N"
cp "$SAMPLES"/steady/* "$N/"
rm "$N/latency.csv"
sed -i 's/"label": "steady"/"label": "noreq"/' "$N/run.json"
cp "$K/memory.csv" "$N/memory.csv"
"$COW" ingest --db "$WORK/skew2.db" "$N" > "$WORK/skew2.out" 2>&1
check "no samples: the memory series against the INFO series" has "^  clock: .*noreq/memory.csv (2026-11-30T10:50:07Z .. 2026-11-30T10:50:20Z) lies 1 h 59 min from .*noreq/info.txt (2026-11-30T08:50:07Z .. 2026-11-30T08:50:20Z): likely offset +02:00" "$WORK/skew2.out"
check "no samples: only that file" test "$(grep -c '^  clock:' "$WORK/skew2.out")" = 1
"$COW" doctor --db "$WORK/s.db" fullsync-disk > "$WORK/s.doc2" 2>&1
check "a capture on one clock: no clock_mismatch" test "$(grep -c clock_mismatch "$WORK/s.doc2")" = 0

# --- rejected lines: the first 5 printed, then how to list them all
R=$WORK/rej/r1
mkdir -p "$R"
{ echo "timestamp_us,latency_us"
  for i in $(seq 1 100); do echo "$((1796028608000000 + i * 2000)),$((100 + i))"; done
  for i in 1 2 3 4 5 6 7; do echo "$((1796028609000000 + i * 2000)),oops$i"; done
} > "$R/latency.csv"
"$COW" ingest --db "$WORK/rej.db" "$WORK/rej" > "$WORK/rej.out" 2> "$WORK/rej.err"
check "7 rejected lines: exit 1" test $? = 1
check "the first 5 printed" test "$(grep -c 'latency.csv:10[2-8]:' "$WORK/rej.err")" = 5
check "then how to list the rest" has "latency.csv: 2 more rejected lines: cowtail rejects --run 'r1' --file 'latency.csv'" "$WORK/rej.err"
"$COW" rejects --db "$WORK/rej.db" --run r1 --file latency.csv > "$WORK/rej.list"
check "rejects lists all 7" test "$(grep -c 'latency.csv:1[01][0-9]: ' "$WORK/rej.list")" = 7
check "with the reason" has "r1/latency.csv:108: " "$WORK/rej.list"
"$COW" rejects --db "$WORK/rej.db" --json > "$WORK/rej.json"
check "rejects --json" has '"line":	108' "$WORK/rej.json"
"$COW" rejects --db "$WORK/rej.db" --run nope > /dev/null 2>&1
check "rejects: unknown run exits 2" test $? = 2

# --- a refusal is cleared when the file later lands
mkdir -p "$WORK/ref/r2"
printf 'timestamp_us,latency\n1796028608000000,5\n' > "$WORK/ref/r2/probe.csv"
"$COW" ingest --db "$WORK/ref.db" "$WORK/ref" > /dev/null 2>&1
"$COW" rejects --db "$WORK/ref.db" > "$WORK/ref.1"
check "a refused file is listed" has "probe.csv:1: refused: latency column 'latency' has no unit" "$WORK/ref.1"
"$COW" ingest --db "$WORK/ref.db" --latency-unit ms "$WORK/ref" > /dev/null 2>&1
"$COW" rejects --db "$WORK/ref.db" > "$WORK/ref.2"
check "once it landed, no longer" has "(nothing rejected)" "$WORK/ref.2"
"$COW" doctor --db "$WORK/ref.db" r2 > "$WORK/ref.doc" 2>&1
check "and the doctor no longer reports it" test "$(grep -c ingest_refusals "$WORK/ref.doc")" = 0

# --- redis.conf lands where CONFIG GET output goes; /proc/loadavg
K=$WORK/conf/run
mkdir -p "$K"
cp "$SRC"/latency.csv "$SRC"/redis.log "$SRC"/thp-enabled.txt "$SRC"/smaps_rollup-1796028674638.txt "$K/"
cp "$DATA/conf/redis.conf" "$DATA/conf/replica.conf" "$K/"
echo "3.14 2.94 2.49 3/120 1732" > "$K/loadavg-1796028671617.txt"
"$COW" ingest --db "$WORK/k.db" "$WORK/conf" > "$WORK/k.out" 2>&1
check "redis.conf: exit 0" test $? = 0
check "redis.conf read" has "redis.conf  *redis-conf  *10 records, 0 rejected" "$WORK/k.out"
check "include recorded, not followed" has "include /etc/redis/common.conf (line 13); include_followed no" "$WORK/k.out"
check "loadavg read" has "loadavg-1796028671617.txt  *procfs  *6 records" "$WORK/k.out"
"$COW" doctor --db "$WORK/k.db" run > "$WORK/k.doc" 2>&1
check "several save lines add up" test "$(sqlite3 "$WORK/k.db" "SELECT text FROM info i JOIN files f ON f.id = i.file WHERE f.path LIKE '%/redis.conf' AND key = 'save'")" = "3600 1 300 100 60 10000"
check "save \"\" is empty" test "$(sqlite3 "$WORK/k.db" "SELECT quote(text) FROM info i JOIN files f ON f.id = i.file WHERE f.path LIKE '%/replica.conf' AND key = 'save'")" = "''"
check "maxmemory 2gb in bytes" test "$(sqlite3 "$WORK/k.db" "SELECT CAST(num AS INTEGER) FROM info WHERE key = 'maxmemory'")" = 2147483648
check "quoted arguments unquoted" test "$(sqlite3 "$WORK/k.db" "SELECT text FROM info WHERE key = 'logfile'")" = "/var/log/redis/redis server.log"
check "the doctor reads redis.conf as it reads CONFIG GET, and says whose" has "disable-thp  *yes  (.*run/redis.conf:10, the primary on port 7301)" "$WORK/k.doc"

# --- identity: a run is its folder and host, not its label; a changed
# file is refused unless --replace; a copy under another name lands once
I=$WORK/ident
mkdir -p "$I/h1" "$I/h2"
for h in h1 h2; do
    cp "$SAMPLES/steady/latency.csv" "$I/$h/"
    printf '{"label": "cache", "host": "%s"}\n' "$h" > "$I/$h/run.json"
done
"$COW" ingest --db "$WORK/i.db" "$I" > "$WORK/i.out" 2>&1
check "one label, two hosts: two runs" has "into 2 runs: 11576 records" "$WORK/i.out"
check "the second renamed, said" has "note: another run is labelled 'cache' too: the one in .*h2 on host h2 is labelled 'cache@h2'" "$WORK/i.out"
"$COW" runs --db "$WORK/i.db" --json > "$WORK/i.json"
check "each host its own samples" test "$(json_field "$WORK/i.json" cache@h2 samples)" = 5788
check "and the first keeps the label" test "$(json_field "$WORK/i.json" cache samples)" = 5788
cp "$I/h1/latency.csv" "$I/h1/latency-copy.csv"
echo "1796028620000000,123.4,set" >> "$I/h1/latency.csv"
"$COW" ingest --db "$WORK/i.db" "$I/h1" > "$WORK/i2.out" 2> "$WORK/i2.err"
check "a grown file: exit 1" test $? = 1
check "refused as changed" has "h1/latency.csv: changed since it was ingested: remove the run or use --replace" "$WORK/i2.err"
check "a copy under another name lands once" has "latency-copy.csv  *a copy of .*h1/latency.csv (same SHA-256): not ingested again" "$WORK/i2.out"
"$COW" runs --db "$WORK/i.db" --json > "$WORK/i2.json"
check "nothing counted twice" test "$(json_field "$WORK/i2.json" cache samples)" = 5788
"$COW" ingest --replace --db "$WORK/i.db" "$I/h1" > "$WORK/i3.out" 2>&1
check "--replace: exit 0" test $? = 0
check "--replace says so" has "replaces what was ingested under that name" "$WORK/i3.out"
"$COW" runs --db "$WORK/i.db" --json > "$WORK/i3.json"
check "--replace: the new rows only" test "$(json_field "$WORK/i3.json" cache samples)" = 5789
check "--replace: still one file of that name" test "$(json_field "$WORK/i3.json" cache files)" = 1
# the copy of the old bytes, met again after --replace: still a copy (of
# what latency.csv held before), never new data
"$COW" ingest --db "$WORK/i.db" "$I/h1" > "$WORK/i4.out" 2>&1
check "after --replace: exit 0" test $? = 0
check "after --replace: a copy of the old bytes is a copy" has "latency-copy.csv  *a copy of .*h1/latency.csv as it was before --replace (same SHA-256): not ingested again" "$WORK/i4.out"
"$COW" runs --db "$WORK/i.db" --json > "$WORK/i4.json"
check "after --replace: nothing landed twice" test "$(json_field "$WORK/i4.json" cache samples)" = 5789
check "after --replace: still one file" test "$(json_field "$WORK/i4.json" cache files)" = 1

# --- no log: windows from the primary's INFO polls only, never from a
# replica's polls (its own rdb_bgsave_in_progress:1 at the end)
P=$WORK/polls/run
mkdir -p "$P/replica_info"
cp "$SRC/latency.csv" "$P/"
cp -r "$SRC/info" "$P/"
for t in 1796028683049 1796028683310 1796028683571; do
    sed -e 's/^process_id:1666/process_id:1678/' -e 's/^tcp_port:7301/tcp_port:7302/' \
        -e 's/^run_id:8be2/run_id:aaaa/' -e 's/^role:master/role:slave/' \
        -e 's/^rdb_bgsave_in_progress:0/rdb_bgsave_in_progress:1/' \
        "$SRC/info/info-$t.txt" > "$P/replica_info/info-$t.txt"
done
"$COW" ingest -q --db "$WORK/p.db" "$P" > /dev/null 2>&1
check "replica polls: the replica told apart" test "$(sqlite3 "$WORK/p.db" "SELECT group_concat(role || ':' || pid, ' ') FROM servers")" = "primary:1666 replica:1678"
"$COW" analyze --db "$WORK/p.db" --json run | tr -d '\n\t ' | grep -o '"phase":"[a-z]*","label":"[a-z0-9#-]*"' | sed 's/.*"label"://' | tr '\n' ' ' > "$WORK/p.win"
check "replica polls: one save, the primary's" test "$(cat "$WORK/p.win")" = '"baseline" "bgsave#1" "after" '

# --- run.json's "files" roles decide what content and names do not: a
# second server's INFO (role:master, another pid and port) declared the
# replica's
J=$WORK/declared/run
mkdir -p "$J/other"
cp "$SRC/latency.csv" "$SRC/info/info-1796028685165.txt" "$J/"
sed -e 's/^process_id:1666/process_id:9999/' -e 's/^tcp_port:7301/tcp_port:7309/' \
    -e 's/^run_id:8be2/run_id:bbbb/' "$SRC/info/info-1796028685165.txt" > "$J/other/info-2.txt"
printf '{"files": {"other/*": {"role": "replica"}}}\n' > "$J/run.json"
"$COW" ingest -q --db "$WORK/j.db" "$J" > /dev/null 2>&1
check "run.json role: the declared replica" test "$(sqlite3 "$WORK/j.db" "SELECT group_concat(role || ':' || pid || ':' || port || ':' || how, ' ') FROM servers")" = "primary:1666:7301:INFO dumps 1 replica:9999:7309:run.json role, INFO dumps 1"

# --- a log two servers wrote into: the primary's and the replica's lines
# of fullsync-disk interleaved by time, plus a BGSAVE of the replica's own
# (added here): split per pid, one fork (the primary's), a note
V=$WORK/twoserver/run
mkdir -p "$V"
cp "$SRC/latency.csv" "$V/"
{ cat "$SRC/redis.log" "$SRC/replica/replica.log"
  printf '1678:S 30 Nov 2026 08:51:20.000 * Background saving started by pid 1690\n'
  printf '1690:C 30 Nov 2026 08:51:20.400 * DB saved on disk\n'
  printf '1690:C 30 Nov 2026 08:51:20.401 * Fork CoW for RDB: current 9 MB, peak 9 MB, average 5 MB\n'
  printf '1678:S 30 Nov 2026 08:51:20.450 * Background saving terminated with success\n'
} | sort -s -t' ' -k5,5 > "$V/redis.log"
"$COW" ingest --db "$WORK/v.db" --log-tz +00:00 "$WORK/twoserver" > "$WORK/v.out" 2>&1
check "interleaved log: the note names the pids" has "servers 2 server processes wrote this log (lines split per pid; windows from the primary's): pid 1666 (primary), child 1844; pid 1678 (replica), child 1690" "$WORK/v.out"
check "interleaved log: ingest names both servers" has "  servers: primary pid 1666 port 7301 (1 file), replica pid 1678 port 7302 (1 file)" "$WORK/v.out"
check "interleaved log: two servers stored" test "$(sqlite3 "$WORK/v.db" "SELECT group_concat(seq || ':' || role || ':' || pid, ' ') FROM servers")" = "1:primary:1666 2:replica:1678"
check "interleaved log: split per pid, each child under its parent" test "$(sqlite3 "$WORK/v.db" "SELECT group_concat(server || ':' || pid, ' ') FROM (SELECT server, pid FROM server_files ORDER BY server, pid)")" = "1:1666 1:1844 2:1678 2:1690"
"$COW" analyze --db "$WORK/v.db" --json run > "$WORK/v.json"
tr -d '\n\t ' < "$WORK/v.json" | grep -o '"phase":"during","label":"[a-z0-9#-]*"' > "$WORK/v.win"
check "one window: the primary's sync, not the replica's save" test "$(cat "$WORK/v.win")" = '"phase":"during","label":"sync-disk#1"'
tr -d '\n\t ' < "$WORK/v.json" | grep -o '"replica_syncs":.*' > "$WORK/v.rs"
check "interleaved log: the replica's steps from pid 1678's lines alone" has '^"replica_syncs":\[{"server":2,"pid":1678,"port":7302,"attempt":1,"resync":"full","outcome":"up",.*"attach_to_link_up_s":1.881,"wait_s":1.257,"transfer_s":0.176,"flush_s":0,"load_s":0.442},{"server":2,"pid":1678,"port":7302,"attempt":2,"resync":null,"outcome":"open",[^]]*}\]' "$WORK/v.rs"

# --- --out: links planted in the report folder are replaced, never
# written through
O=$WORK/out
mkdir -p "$O"
echo "keep me" > "$WORK/victim.txt"
ln -s "$WORK/victim.txt" "$O/summary.md"
ln -s "$WORK/victim.txt" "$O/timeline-steady.png"
touch "$O/.cowtail-report"
"$COW" report --db "$WORK/out.db" --out "$O" "$SAMPLES/steady" > "$WORK/out.log" 2>&1
check "report with links in --out: exit 0" test $? = 0
check "the link's target is untouched" test "$(cat "$WORK/victim.txt")" = "keep me"
check "summary.md is a file of its own" test -f "$O/summary.md" -a ! -L "$O/summary.md"
check "the chart too" test -f "$O/timeline-steady.png" -a ! -L "$O/timeline-steady.png"
check "no temporary file left" test -z "$(ls "$O" | grep tmp-)"

# --- empty cells in series are missing values; an empty column is dropped
"$COW" ingest --db "$WORK/mv.db" "$DATA/missing" > "$WORK/mv.out" 2>&1
check "series with empty cells: exit 0" test $? = 0
check "memory: every value landed (170 + 170 + 18)" has "memory.csv  *mem-series  *358 records, 0 rejected" "$WORK/mv.out"
check "the empty column dropped, said" has "dropped_columns replica_rss_kb (empty throughout)" "$WORK/mv.out"
check "missing cells counted" has "missing_values 322 empty cells" "$WORK/mv.out"
check "throughput: the interval with no count is left out" has "throughput.csv  *throughput-csv  *11 records, 0 rejected" "$WORK/mv.out"

finish
