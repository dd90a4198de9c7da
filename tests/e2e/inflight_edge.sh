#!/bin/bash
# inflight_edge.sh COWTAIL SAMPLES -- the in-flight edge rule counts each
# request once, everywhere: a request sent before a window opens that
# completes inside it is the window's (phase_holds), in analyze's n and in
# the report's "N of M beyond" alike (the report counted the window by
# send time: 2,792 samples where 2,793 requests were in flight).
set -u
COW=$1
SAMPLES=$2
. "$(dirname "$0")/lib.sh"

cp -r "$SAMPLES/bgsave-t1" "$WORK/edge"
# bgsave#1 opens at 1796028627615900: one request sent 1 ms before, its
# reply 4 ms into the window
awk -F, 'NR > 1 && !done && $1 > 1796028627614900 { print "1796028627614900,5000.0,get"; done = 1 }
         { print }' "$SAMPLES/bgsave-t1/latency.csv" > "$WORK/edge/latency.csv"
check "the edge request is in the capture" grep -q '^1796028627614900,5000.0,get$' "$WORK/edge/latency.csv"
"$COW" report --db "$WORK/e.db" --out "$WORK/rep" "$WORK/edge" > "$WORK/out" 2>&1
check "report exits 0" test $? = 0
n=$(sqlite3 "$WORK/e.db" "SELECT n FROM phases WHERE label = 'bgsave#1'")
sent=$(sqlite3 "$WORK/e.db" "SELECT count(*) FROM samples s JOIN phases p ON p.run = s.run
       WHERE p.label = 'bgsave#1' AND s.t_us >= p.t0_us AND s.t_us < p.t1_us")
check "the shape: the window holds more by completion ($n) than by send ($sent)" test "$n" -gt "$sent"
shown=$(grep -o '[0-9]* of [0-9]* beyond' "$WORK/rep/summary.md" | head -1 | awk '{print $3}')
check "the report's window count ($shown) is analyze's n ($n)" test "$shown" = "$n"
total=$(sqlite3 "$WORK/e.db" "SELECT sum(n) FROM phases")
all=$(sqlite3 "$WORK/e.db" "SELECT count(*) FROM samples")
check "every request in exactly one phase ($total of $all)" test "$total" = "$all"
finish
