#!/bin/bash
# held.sh COWTAIL DATA -- nothing with evidence is called empty: a run
# without latency samples that holds findings (an overcommit warning),
# redis-cli latency intervals and a memory series (tests/data/e2e/held)
# is listed in the answer table and gets its own part saying what it
# holds, in summary.md and index.html alike; its findings most severe
# first.
set -u
COW=$1 DATA=$2
. "$(dirname "$0")/lib.sh"

"$COW" report --db "$WORK/h.db" --out "$WORK/rep" "$DATA/held" > "$WORK/out" 2>&1
check "report exits 0" test $? = 0
md=$WORK/rep/summary.md page=$WORK/rep/index.html
check "not called empty" test "$(grep -c 'no other evidence\|Nothing to report' "$md")" = 0
check "listed in the answer table" has '^| quiet | no fork, save or sync window |.*it holds 2 findings (1 of warning or worse), 4 latency intervals (worst 6.0 ms), a memory series of 75 polls' "$md"
check "its own part, with what it holds" has '^\*\*quiet\*\*: no latency samples, so no tail verdict; it holds ' "$md"
check "the warning before the info" test "$(grep -n '^| warning finding overcommit' "$md" | cut -d: -f1)" -lt \
    "$(grep -n '^| info finding' "$md" | cut -d: -f1)"
check "the intervals, with their worst" has '^| latency intervals (redis-cli, hiccup logs) | 4 | worst 6.0 ms |' "$md"
check "the page says it too" has 'it holds 2 findings (1 of warning or worse)' "$page"
check "the page's answer table lists it" has '<table id="answer-table"' "$page"
# the run's own section: its findings most severe first (the doctor
# stores them in rule order, info before warning here)
sec=$(sed -n '/<h2 id="run-quiet"/,/<\/section>/p' "$page")
check "the section: warning before info" test "$(echo "$sec" | grep -n 'class="finding warning"' | head -1 | cut -d: -f1)" -lt \
    "$(echo "$sec" | grep -n 'class="finding info"' | head -1 | cut -d: -f1)"
finish
