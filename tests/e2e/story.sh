#!/bin/bash
# story.sh COWTAIL DATA -- end-to-end on tests/data/e2e/story (the seed 000
# shape, composed: a disk full sync with stalls, a diskless one without;
# THP [always] but AnonHugePages 0; fork 1.7 ms; DOCTOR saw nothing):
# analyze, diff, doctor, check, and bit-identical results for a seed.
set -u
COW=$1
DATA=$2
. "$(dirname "$0")/lib.sh"

DB=$WORK/s.db
"$COW" ingest -q --db "$DB" "$DATA/story" > "$WORK/ingest" 2>&1
check "ingest exits 0" test $? = 0
check "12 files landed" has "ingested 12 files into 2 runs" "$WORK/ingest"

"$COW" analyze --db "$DB" > "$WORK/a1"
check "analyze exits 0" test $? = 0
check "phases from the log" has "sync-disk#1 " "$WORK/a1"
check "diskless phase" has "sync-diskless#1 " "$WORK/a1"
check "p99 lift found" has "p99 .*lift" "$WORK/a1"
check "seed printed" has "seed 1" "$WORK/a1"
check "thin p99.99 shown as a bound" has ">=" "$WORK/a1"
"$COW" analyze --db "$DB" --json > "$WORK/j1"
"$COW" analyze --db "$DB" --json > "$WORK/j2"
check "bit-identical with the same seed" cmp -s "$WORK/j1" "$WORK/j2"
"$COW" analyze --db "$DB" --json --seed 2 > "$WORK/j3"
check "another seed moves the intervals" test "$(cmp -s "$WORK/j1" "$WORK/j3"; echo $?)" = 1
check "json has baseline n 3000" has '"n":	3000' "$WORK/j1"
"$COW" runs --db "$DB" > "$WORK/runs"
check "runs lists phases" has "baseline sync-disk#1 after" "$WORK/runs"

"$COW" doctor --db "$DB" --json > "$WORK/doc"
check "doctor exits 0" test $? = 0
for rule in tail_only_lift fork_not_the_cost thp_not_backing_heap \
            disk_vs_diskless_sync monitor_blind_spot full_resyncs; do
    check "doctor fires $rule" has "\"rule\":	\"$rule\"" "$WORK/doc"
done
check "no full_lift on a tail-only story" test "$(grep -c '"full_lift"' "$WORK/doc")" = 0
check "evidence cites file:line" has 'story/disk/info.txt:[0-9]' "$WORK/doc"

"$COW" diff --db "$DB" diskless disk > "$WORK/diff"
check "diff exits 0" test $? = 0
check "diff: disk lifts p99 over diskless" has "p99 .*lift" "$WORK/diff"

cat > "$WORK/th.json" <<'JSON'
{"max_p999_lift_ms": 5, "require_thp_off": true, "min_samples": 1000}
JSON
"$COW" check --db "$DB" --thresholds "$WORK/th.json" > "$WORK/check"
check "check fails the disk run (exit 1)" test $? = 1
check "disk run fails on the lift" has "^disk .*max_p999_lift_ms .*FAIL" "$WORK/check"
check "diskless run passes the lift" has "^diskless .*max_p999_lift_ms .*pass" "$WORK/check"
echo '{"max_p999_lift_ms": 100}' > "$WORK/th2.json"
"$COW" check --db "$DB" --thresholds "$WORK/th2.json" > /dev/null
check "check passes with a loose limit (exit 0)" test $? = 0
echo '{"max_p99_ms": -1}' > "$WORK/th3.json"
"$COW" check --db "$DB" --thresholds "$WORK/th3.json" > /dev/null 2>&1
check "bad thresholds exit 2" test $? = 2

# the report: files a person opens
"$COW" report --db "$DB" --out "$WORK/rep" > "$WORK/report" 2>&1
check "report exits 0" test $? = 0
check "report says where it is" has "report written to $WORK/rep/" "$WORK/report"
check "the answers printed" has "what happened (summary.md opens with the same):" "$WORK/report"
check "summary written" test -s "$WORK/rep/summary.md"
check "summary headline row for disk" has "^| disk | fullsync | 3000 |" "$WORK/rep/summary.md"
check "summary names the seed" has "seed 1" "$WORK/rep/summary.md"
check "summary links the timeline" has "(timeline-disk.png)" "$WORK/rep/summary.md"
check "missing data explained, not drawn" has "Forkless save progress: no forkless run" "$WORK/rep/summary.md"
png_size() { # width x height from the IHDR chunk
    od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}'
}
for png in timeline-disk timeline-diskless distribution-disk window-disk; do
    check "$png.png is a PNG" test "$(head -c 8 "$WORK/rep/$png.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
    check "$png.png is 1600x900" test "$(png_size "$WORK/rep/$png.png")" = 1600x900
    check "$png.png is not blank (compressed > 20 KB)" test "$(stat -c %s "$WORK/rep/$png.png")" -gt 20000
done
check "no empty chart written" test ! -e "$WORK/rep/progress.png"
check "workbook is a zip" test "$(head -c 2 "$WORK/rep/report.xlsx")" = PK
if command -v unzip > /dev/null; then
    unzip -p "$WORK/rep/report.xlsx" xl/workbook.xml > "$WORK/wb.xml"
    check "workbook has a Findings sheet" has 'name="Findings"' "$WORK/wb.xml"
    check "workbook has a Percentiles sheet" has 'name="Percentiles"' "$WORK/wb.xml"
    check "workbook has the charts" has 'name="Charts"' "$WORK/wb.xml"
    # both runs' timelines (a report of at most six runs carries every one)
    check "the timeline PNG is inside" test "$(unzip -l "$WORK/rep/report.xlsx" | grep -c 'xl/media/image')" -ge 2
    # the answer table comes first, then the Answers sheet (and Inputs when a file did not
    # land whole); the Summary sheet follows them
    check "workbook opens with the answer table, then the Answers sheet" has '<sheet name="Answer" sheetId="1".*<sheet name="Answers" sheetId="2"' "$WORK/wb.xml"
    sn=$(grep -o '<sheet name="[^"]*"' "$WORK/wb.xml" | grep -n '"Summary"' | cut -d: -f1)
    unzip -p "$WORK/rep/report.xlsx" "xl/worksheets/sheet$sn.xml" > "$WORK/s1.xml"
    unzip -p "$WORK/rep/report.xlsx" xl/sharedStrings.xml > "$WORK/ss.xml"
    check "Summary sheet: baseline n 3000" has '<v>3000</v>' "$WORK/s1.xml"
    check "Summary sheet names the worst window" has 'sync-disk#1' "$WORK/ss.xml"
    check "no formula anywhere in the workbook" test "$(unzip -p "$WORK/rep/report.xlsx" 'xl/worksheets/*.xml' | grep -c '<f>')" = 0
fi
cp "$WORK/rep/report.xlsx" "$WORK/first.xlsx"
"$COW" report --db "$DB" --out "$WORK/rep" > /dev/null 2>&1
check "workbook is byte-stable" cmp -s "$WORK/first.xlsx" "$WORK/rep/report.xlsx"

# report --thresholds over several runs: the fleet check and what the failing runs share
"$COW" report --db "$DB" --thresholds "$WORK/th.json" --out "$WORK/rep2" > /dev/null 2>&1
check "report --thresholds exits 0" test $? = 0
check "summary: the fleet check" has "^Limits of .*th.json\`, judged as \`cowtail check\` judges them (Holm over 2 comparisons, runs x latency limits): 1 of 2 runs fail; 1 of 1 hosts with several runs, each judged once on its pooled runs, fail.$" "$WORK/rep2/summary.md"
check "summary: the failing run and its limit" has '^| disk | mac | max\\_p999\\_lift\\_ms 23.780 (limit 5; raw p [0-9.e-]*, adjusted p [0-9.e-]*) |$' "$WORK/rep2/summary.md"
check "summary: the host judged on its pooled runs" has '^| mac | 2 | max\\_p999\\_lift\\_ms 23.677 (limit 5; raw p [0-9.e-]*, adjusted p [0-9.e-]*) |$' "$WORK/rep2/summary.md"
check "summary: the triage table" has '^| THP mode | +0.00 | always 1/1 |$' "$WORK/rep2/summary.md"
check "summary without --thresholds: no fleet check" test "$(grep -c '## Fleet check' "$WORK/rep/summary.md")" = 0

# an open-loop probe (intended_us) that was itself late: the answer warns and
# states the send lag, and the caveats do not call the probe closed-loop
mkdir -p "$WORK/late/run"
awk 'BEGIN { print "timestamp_us,latency_us,op,intended_us";
             for (i = 0; i < 3000; i++) { w = 1738591331000000 + i * 2000;
                 printf "%.0f,300,ping,%.0f\n", w + (i % 20 == 0 ? 40000 : 50), w } }' \
    > "$WORK/late/run/latency.csv"
"$COW" report --db "$WORK/late.db" --out "$WORK/late/rep" --latency-from sent "$WORK/late/run" > "$WORK/late/out" 2>&1
check "late probe: report --latency-from sent on the folder exits 0" test $? = 0
check "late probe: the answer warns, and does not blame the host" has 'Warning: the probe itself was sent late (a probe that waits for each reply waits out the server.s stalls; a busy host delays it too): tail figures read from the actual send are lower bounds of what clients saw' "$WORK/late/rep/summary.md"
check "late probe: the send lag stated" has 'Probe: sent late by p99 40.000 ms, at most 40.000 ms, 150 of 3000 samples more than 1 ms late; latency read from the actual send' "$WORK/late/rep/summary.md"
check "late probe: not called closed-loop" test "$(grep -c 'closed-loop' "$WORK/late/rep/summary.md")" = 0
check "late probe: caveat says the samples carry their intended send" has 'Each sample carries its intended send' "$WORK/late/rep/summary.md"
# the same database read from the intended send (the default): no warning
"$COW" report --db "$WORK/late.db" --out "$WORK/late/rep-int" > "$WORK/late/out2" 2>&1
check "late probe: report (intended, the default) exits 0" test $? = 0
check "late probe: read from the intended send by default, no run warned of" has "each run.s answer states its send lag (0 with a p99 of 1 ms or more" "$WORK/late/rep-int/summary.md"
check "late probe: from the intended send, no warning" test "$(grep -c 'Warning: the probe itself' "$WORK/late/rep-int/summary.md")" = 0
"$COW" analyze --db "$WORK/late.db" --latency-from sent > "$WORK/late/an-sent" 2>&1
"$COW" analyze --db "$WORK/late.db" --latency-from intended > "$WORK/late/an-int" 2>&1
check "late probe: analyze --latency-from sent and intended differ" test -n "$(diff "$WORK/late/an-sent" "$WORK/late/an-int")"
check "late probe: from the intended send, the late sends' 40 ms show in the max" has "40\.300" "$WORK/late/an-int"
check "closed-loop caveat kept for the story's probe" has 'A closed-loop probe waits out each stall' "$WORK/rep/summary.md"

finish
