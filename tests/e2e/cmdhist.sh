#!/bin/bash
# cmdhist.sh COWTAIL DATA -- a real capture's LATENCY HISTOGRAM at its
# start and end (tests/data/cmdhist/keys-2core: three KEYS calls of up to
# 135 ms and a DEBUG SLEEP during the run) gives the slow_command finding:
# the commands, their calls during the run and the bounds, each citing its
# line; a histogram alone is read as since the counters were reset; the
# piped file's "info" and "ping" lines are command names, not transcript
# echoes. tests/data/cmdhist/keys-in-save (a KEYS of 270 ms inside a
# BGSAVE whose fork took 21 ms): the answer's cause is the command, the fork
# also; the latency monitor's 1,458 ms from before the capture is not the
# run's evidence.
set -u
. "$(dirname "$0")/lib.sh"
COW=$1
DATA=$2
cd "$WORK" || exit 2
cp -r "$DATA/keys-2core" run
"$COW" ingest --db h.db run > ing.out 2>&1
check "ingest exits 0" test $? = 0
check "both histograms read whole" has "latency-histogram.txt  *redis-latency  *37 records, 0 rejected" ing.out
check "the start histogram read whole" has "latency-histogram-start.txt  *redis-latency  *8 records, 0 rejected" ing.out
sqlite3 h.db "SELECT key FROM stats WHERE source = 'latency-histogram' AND text = 'calls'" > keys.txt
check "'info' is a command here, not an echo" has "^info$" keys.txt
check "'ping' too" has "^ping$" keys.txt
"$COW" doctor --db h.db > doc.out 2>&1
check "doctor: KEYS first, during the run" \
    has "slow_command: keys took over 67.6 ms on the server itself during the run (3 of 3 calls, up to 135.3 ms); also debug" doc.out
check "doctor: KEYS cites its line" has "keys  *3 of 3 calls took over 67.6 ms .*run/latency-histogram.txt:91" doc.out
check "doctor: DEBUG" has "debug  *1 of 1 calls took over 16.9 ms .*up to 33.8 ms" doc.out
check "doctor: the advice names SLOWLOG and SCAN" has "SLOWLOG GET 32 names the calls.*replace KEYS with SCAN" doc.out
check "doctor: no 'may predate' with both snapshots" not_has "may predate the run" doc.out
check "doctor: the fast commands are not named" not_has "  set  *[0-9]* of" doc.out
rm run/latency-histogram-start.txt
"$COW" doctor --db h2.db > /dev/null 2>&1
"$COW" ingest --db h2.db run > /dev/null 2>&1
"$COW" doctor --db h2.db > doc2.out 2>&1
check "one histogram: since the counters were reset" \
    has "keys took over 67.6 ms on the server itself since its counters were reset" doc2.out
check "one histogram: may predate the run" has "may predate the run" doc2.out
cp -r "$DATA/keys-in-save" keys-in-save
"$COW" report --db k.db --out k-report keys-in-save > k.out 2>&1
check "keys-in-save: report exits 0" test $? = 0
check "keys-in-save: the cause is the command, the fork also" \
    has "Cause: a slow command (keys, the run's slowest by LATENCY HISTOGRAM) blocked the server 270 ms, 0.2-1.2 s into the save (its latency monitor); also the fork (21.0 ms)" k-report/summary.md
check "keys-in-save: the answer table says the same" \
    has "| a slow command (keys, the run's slowest by LATENCY HISTOGRAM) blocked the server 270 ms" k-report/summary.md
check "keys-in-save: what to do is the command's" has "Do: SLOWLOG GET 32 names the call" k-report/summary.md
check "keys-in-save: the latency monitor's stall during the run" has "a 270 ms stall in LATENCY" k-report/summary.md
check "keys-in-save: not the 1458 ms stamped before the capture began" not_has "1458 ms" k-report/summary.md
"$COW" doctor --db k.db > k-doc.out 2>&1
check "keys-in-save: doctor's command_in_save cites the history line" \
    has "latency monitor's command event  *270 ms (command), stamped 0.2-1.2 s .*keys-in-save/latency-history-command.txt:" k-doc.out
finish
