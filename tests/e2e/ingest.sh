#!/bin/bash
# ingest.sh COWTAIL DATA -- end-to-end: ingest capture trees, check exact
# counts, duplicates, rejects, refusals and exit codes.
set -u
COW=$1
DATA=$2
. "$(dirname "$0")/lib.sh"

DB=$WORK/t.db
"$COW" ingest --db "$DB" "$DATA/tree" > "$WORK/out1" 2> "$WORK/err1"
rc=$?
check "tree ingest exits 1 (2 rejected lines)" test "$rc" = 1
"$COW" runs --db "$DB" --json > "$WORK/runs1"
check "steady has 500 samples" test "$(json_field "$WORK/runs1" steady samples)" = 500
check "run.json label wins" test "$(json_field "$WORK/runs1" fullsync-disk samples)" = 300
check "run.json scenario kept" test "$(json_field "$WORK/runs1" fullsync-disk scenario)" = '"fullsync"'
check "run.json trial kept" test "$(json_field "$WORK/runs1" fullsync-disk trial)" = 1
check "relative times anchored by t0" test "$(json_field "$WORK/runs1" sync t_first_us)" = 1738591331000000
check "relative file: 50 samples" test "$(json_field "$WORK/runs1" sync samples)" = 50
check "relative file: 2 rejected" test "$(json_field "$WORK/runs1" sync rejected)" = 2
check "rejects printed with file:line" has "relative.tsv:53: latency is NaN or infinite" "$WORK/err1"
check "summary line" has "ingested 5 files into 3 runs: 852 records, 2 rejected lines" "$WORK/out1"
check "two files with the same bytes both land" has "latency-latest.txt .*redis-latency" "$WORK/out1"
check "steady has 3 files" test "$(json_field "$WORK/runs1" steady files)" = 3
check "a folder with .cowtailignore is skipped" test "$(grep -c would-be-refused "$WORK/out1" "$WORK/err1" | awk -F: '{s+=$2} END {print s}')" = 0

"$COW" ingest --db "$DB" "$DATA/tree" > "$WORK/out2" 2>&1
check "re-ingest says already ingested" has "already ingested (same SHA-256)" "$WORK/out2"
check "re-ingest adds nothing" has "ingested 0 files into 0 runs: 0 records" "$WORK/out2"
"$COW" runs --db "$DB" --json > "$WORK/runs2"
check "counts unchanged after re-ingest" cmp -s "$WORK/runs1" "$WORK/runs2"

"$COW" ingest --db "$DB" "$DATA/bad" > "$WORK/out3" 2> "$WORK/err3"
rc=$?
check "bad folder exits 1" test "$rc" = 1
check "unit refusal names the flag" has "nounit.csv:1: latency column 'latency' has no unit.*--latency-unit" "$WORK/err3"
check "mixed clocks explained" has "mixedclock.csv:2: .*monotonic clock" "$WORK/err3"
check "mostly bad file refused whole" has "mostlybad.csv .*refused (latency-csv)" "$WORK/out3"
check "refusal says why" has "mostlybad.csv: 5 of 10 data lines rejected" "$WORK/err3"
check "unknown file skipped, said" has "notes.txt .*skipped: no parser recognises it" "$WORK/out3"
"$COW" runs --db "$DB" --json > "$WORK/runs3"
check "nothing of a refused folder landed" test -z "$(json_field "$WORK/runs3" bad samples)"

"$COW" ingest --db "$DB" --latency-unit ms --label manual "$DATA/bad/nounit.csv" > "$WORK/out4" 2>&1
check "--latency-unit settles it" has "nounit.csv .*latency-csv .*1 samples, 0 rejected" "$WORK/out4"

# refused files are remembered: the doctor says so for the run
"$COW" ingest --db "$WORK/r.db" --latency-unit ms "$DATA/bad" > /dev/null 2>&1
"$COW" doctor --db "$WORK/r.db" --json bad > "$WORK/doc" 2>&1
check "doctor reports the refused files" has '"rule":	"ingest_refusals"' "$WORK/doc"
check "with the reason" has 'refused at ingest (clock problem)' "$WORK/doc"
# ... once per file: ingesting the same folder again does not double them
"$COW" rejects --db "$WORK/r.db" > "$WORK/rej1"
"$COW" ingest --db "$WORK/r.db" --latency-unit ms "$DATA/bad" > "$WORK/again" 2>&1
"$COW" rejects --db "$WORK/r.db" > "$WORK/rej2"
check "re-ingest: the same refusals, once each" cmp -s "$WORK/rej1" "$WORK/rej2"
check "one row per refused file" test "$(grep -c 'mixedclock.csv:2: refused' "$WORK/rej2")" = 1
check "the unrecognised file is listed too" has "notes.txt: not recognised: no parser recognises it" "$WORK/rej2"
"$COW" doctor --db "$WORK/r.db" --json bad > "$WORK/doc2" 2>&1
check "the doctor counts each refused file once" test \
    "$(grep -o '"title":[^,]*refused at ingest[^"]*' "$WORK/doc" | head -1)" = \
    "$(grep -o '"title":[^,]*refused at ingest[^"]*' "$WORK/doc2" | head -1)"
check "ingest lists every file that did not land whole" has "^  bad: .*notes.txt: not recognised, not read" "$WORK/again"
check "with what to do" has "^  bad: .*mixedclock.csv line 2: refused, nothing of it loaded: .*Do: " "$WORK/again"

# a run with only the server's log and LATENCY output: its windows, and
# the doctor's findings on that evidence, each with file:line
"$COW" ingest -q --db "$WORK/l.db" "$DATA/logonly" > /dev/null 2>&1
"$COW" analyze --db "$WORK/l.db" > "$WORK/l.an"
check "log only: analyze lists the log's windows, with the copy-on-write its child reported" has "^  bgsave#1  *2026-12-02T03:10:00.297Z  *86.844  *5655  log" "$WORK/l.an"
check "log only: the killed save marked" has "^  bgsave#2 .* ended in error or killed" "$WORK/l.an"
"$COW" doctor --db "$WORK/l.db" --json > "$WORK/l.doc"
check "log only: copy-on-write from the log, with file:line" has '"source":	"[^"]*logonly/redis.log:7"' "$WORK/l.doc"
check "log only: log_cow fires" has '"rule":	"log_cow"' "$WORK/l.doc"
check "log only: the child killed by signal 9, with file:line" has '"source":	"[^"]*logonly/redis.log:11"' "$WORK/l.doc"
check "log only: save_child_killed fires" has '"rule":	"save_child_killed"' "$WORK/l.doc"
check "log only: LATENCY DOCTOR's huge pages, at the line that says it" has '"source":	"[^"]*logonly/latency-doctor.txt:9"' "$WORK/l.doc"
check "log only: the 431 ms spike" has '"value":	"431 ms, command (LATENCY LATEST)"' "$WORK/l.doc"
"$COW" doctor --db "$WORK/l.db" > "$WORK/l.doct"
check "log only: the answer comes first, with the window and the evidence" has \
    "^  logonly: bgsave at 2026-12-02T03:10:00Z for 86.8 s (the longest of 2 windows): no latency samples, so no tail verdict. Evidence: copy-on-write 5655 MB, a fork child was killed or failed" "$WORK/l.doct"

# a 197 ms fork that the run's worst sample waited out (synthetic)
"$COW" ingest -q --db "$WORK/f.db" "$DATA/forkstall" > /dev/null 2>&1
"$COW" doctor --db "$WORK/f.db" > "$WORK/f.doc"
check "fork_is_the_cost names the fork, the samples in flight and the worst one" has \
    "\[warning\] fork_is_the_cost: the fork itself was the stall: the fork of bgsave#1 took 197.0 ms, and 1 sample in flight while it ran, the longest 195.3 ms (sent 2.0 ms after the fork began): the run's worst sample is among them" "$WORK/f.doc"
# the first poll after the child started: the fork's own (phase.c, Requirement 9)
check "and cites latest_fork_usec at its file:line" has "latest_fork_usec  *197000  (.*forkstall/info.txt:25)" "$WORK/f.doc"
# ... the same run without INFO: LATENCY HISTORY fork gives the fork time
mkdir -p "$WORK/fs2/forkstall2"
cp "$DATA/forkstall/latency.csv" "$DATA/forkstall/redis.log" "$WORK/fs2/forkstall2/"
printf '1796200003\n197\n' > "$WORK/fs2/forkstall2/latency-history-fork.txt"
"$COW" ingest -q --db "$WORK/f2.db" "$WORK/fs2/forkstall2" > /dev/null 2>&1
"$COW" doctor --db "$WORK/f2.db" > "$WORK/f2.doc"
check "without INFO: fork_is_the_cost from LATENCY HISTORY fork" has \
    "fork_is_the_cost: the fork itself was the stall: the fork of bgsave#1 took 197.0 ms" "$WORK/f2.doc"
check "and cites the LATENCY HISTORY line" has "fork time  *197 ms (LATENCY HISTORY fork)  (.*latency-history-fork.txt:1)" "$WORK/f2.doc"
check "the answer names the fork as the cause" has "^  forkstall: .*Cause: the fork itself: the server stood still while it ran" "$WORK/f.doc"

"$COW" > /dev/null 2>&1; check "no command exits 2" test $? = 2
"$COW" frobnicate > /dev/null 2>&1; check "unknown command exits 2" test $? = 2
"$COW" ingest --db "$DB" > /dev/null 2>&1; check "ingest without path exits 2" test $? = 2
"$COW" ingest --db "$DB" "$WORK/none" > /dev/null 2>&1; check "missing path exits 2" test $? = 2
"$COW" --help > "$WORK/help"; check "--help exits 0" test $? = 0
check "--help lists ingest" has "ingest" "$WORK/help"
"$COW" help ingest > "$WORK/help2"; check "help ingest shows options" has "\-\-latency-unit" "$WORK/help2"
"$COW" --version | grep -q "^cowtail [0-9]"; check "--version" test $? = 0
"$COW" runs --db "$DB" > /dev/null; check "runs table exits 0" test $? = 0
"$COW" runs --db "$WORK/none.db" > /dev/null 2> "$WORK/none"; check "a missing database exits 2" test $? = 2
check "and is not created" test ! -e "$WORK/none.db"
check "the error says what to do" has "no such database: load captures first" "$WORK/none"

# counters since server start are differences over the capture, never
# events in it: an observe-only run whose every INFO dump says sync_full:2
# (two syncs before the capture, no sync line in the log) has no full
# resync, and a replica at lag=1 (one REPLCONF ACK a second) is normal
mkdir -p "$WORK/obs/observe"
cp "$DATA"/../../../samples/steady/* "$WORK/obs/observe/"
sed -i -e 's/^sync_full:0/sync_full:2/' \
    -e 's/^connected_slaves:0/connected_slaves:1\nslave0:ip=10.0.0.7,port=6379,state=online,offset=5040,lag=1/' \
    "$WORK/obs/observe/info.txt"
sed -i 's/"label": "steady"/"label": "observe"/' "$WORK/obs/observe/run.json"
"$COW" ingest -q --db "$WORK/obs.db" "$WORK/obs/observe" > /dev/null 2>&1
"$COW" doctor --db "$WORK/obs.db" > "$WORK/obs.doc" 2>&1
check "observe-only: the doctor runs" test $? = 0
check "observe-only: the replica was read" has "slave0" "$WORK/obs/observe/info.txt"
check "observe-only: sync_full 2 since start is no full resync in the capture" bash -c "! grep -q full_resyncs \"$WORK/obs.doc\""
check "observe-only: lag=1 is no finding" bash -c "! grep -q replica_lag \"$WORK/obs.doc\""

# LATENCY DOCTOR alone is evidence: a wrapped event line (an 80-column
# terminal cut it mid-number) reporting a 500 ms command stall is a
# finding with SLOWLOG's advice, not "nothing to report"
mkdir -p "$WORK/ld/doctoronly"
printf '%s\n' "Dave, I have observed latency spikes in this Redis instance. You don't mind talking about it, do you Dave?" "" \
    "1. command: 3 latency spikes (average 180ms, mean deviation 120ms, period 40.1" \
    "2 sec). Worst all time event 500ms." \
    "2. aof-fsync-always: 2 latency spikes (average 30ms, mean deviation 5ms," \
    "period 60.00 sec). Worst all time event 41ms." "" \
    "I have a few advices for you:" > "$WORK/ld/doctoronly/latency-doctor.txt"
"$COW" ingest -q --db "$WORK/ld.db" "$WORK/ld/doctoronly" > /dev/null 2>&1
"$COW" doctor --db "$WORK/ld.db" > "$WORK/ld.doc" 2>&1
check "DOCTOR only: the wrapped 500 ms command stall is a finding" has "latency_spike: the server's latency monitor recorded a 500 ms stall: command (LATENCY DOCTOR)" "$WORK/ld.doc"
check "DOCTOR only: its advice is SLOWLOG's" has "read SLOWLOG GET" "$WORK/ld.doc"

# a fork child's files by their own name or the child's own folder: a run
# folder whose name holds "children" keeps the server's smaps evidence,
# while the child's own smaps_rollup-child-* files stay the child's
mkdir -p "$WORK/kc/killed-children-run"
cp "$DATA"/../../../samples/bgsave-t1/* "$WORK/kc/killed-children-run/"
sed -i 's/"label": "bgsave-t1"/"label": "killed-children-run"/' "$WORK/kc/killed-children-run/run.json"
"$COW" ingest -q --db "$WORK/kc.db" "$WORK/kc/killed-children-run" > /dev/null 2>&1
"$COW" doctor --db "$WORK/kc.db" > "$WORK/kc.doc" 2>&1
check "a folder named killed-children-run: the server's AnonHugePages still read" \
    has "AnonHugePages  *0 kB  (.*killed-children-run/smaps_rollup-1796028626606.txt:16)" "$WORK/kc.doc"

# ... and the same fork followed by 1.6 s of 120 ms samples (the shape of
# a live capture: a fork, then seconds of slow medians): the slowness
# outlasts the fork, so it is not the fork's, and the fork is named as also
mkdir -p "$WORK/fs3/forkslow"
cp "$DATA/forkstall/info.txt" "$DATA/forkstall/redis.log" "$WORK/fs3/forkslow/"
sed 's/"label": "forkstall"/"label": "forkslow"/' "$DATA/forkstall/run.json" > "$WORK/fs3/forkslow/run.json"
awk -F, 'NR > 1 && $1 >= 1796200003300000 && $1 < 1796200004900000 { print $1 ",120000.0"; next } { print }' \
    "$DATA/forkstall/latency.csv" > "$WORK/fs3/forkslow/latency.csv"
"$COW" ingest -q --db "$WORK/f3.db" "$WORK/fs3/forkslow" > /dev/null 2>&1
"$COW" doctor --db "$WORK/f3.db" > "$WORK/f3.doc"
check "slowness after the fork: not fork_is_the_cost" bash -c "! grep -q 'fork_is_the_cost' \"$WORK/f3.doc\""
check "slowness after the fork: slowness_outlasts_fork with its numbers" has \
    "slowness_outlasts_fork: the slowness outlasts the fork: the fork of bgsave#1 took 197.0 ms, and [0-9]* samples sent after it ended took 98.500 ms or more, the last 1.[0-9] s after it" "$WORK/f3.doc"
check "slowness after the fork: the answer says it though the p99.9 cannot tell" has \
    "^  forkslow: bgsave .*: ? .*; but p90 lift +119.[0-9]* \\[" "$WORK/f3.doc"
check "slowness after the fork: the cause names the fork as also" has "Cause: .*not the fork.*; also the fork (197.0 ms)" "$WORK/f3.doc"

finish
