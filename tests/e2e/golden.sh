#!/bin/bash
# golden.sh COWTAIL SAMPLES GOLDEN -- whole outputs on the committed
# samples/ against the files in GOLDEN (tests/data/golden): `runs`,
# `analyze`, `doctor` and `check` as JSON, and the report's summary.md.
# Any changed number fails. When a change is meant, rewrite them with
#     COW_UPDATE_GOLDEN=1 ctest -R e2e_golden      (or: make golden)
# and review `git diff tests/data/golden` like code.
#
# Normalised, because they depend on the machine, not on cowtail: the
# scratch folder's path, and this machine's name where runs say which
# machine ingested them (ingested_on: THIS_MACHINE). Inputs are given as the relative path "samples"
# and the database as "s.db", so stored sources and the summary do not
# name this machine's folders.
set -u
COW=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SAMPLES=$(cd "$2" && pwd)
GOLDEN=$3
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)

# golden NAME: compare (or rewrite) $WORK/NAME with $GOLDEN/NAME
golden() {
    sed -e "s#$WORK#WORK#g" \
        -e "s#\"ingested_on\":\([[:space:]]*\)\"$(hostname)\"#\"ingested_on\":\1\"THIS_MACHINE\"#" \
        "$WORK/$1" > "$WORK/$1.norm"
    if [ -n "${COW_UPDATE_GOLDEN:-}" ]; then
        mkdir -p "$GOLDEN" && cp "$WORK/$1.norm" "$GOLDEN/$1"
        echo "rewrote $GOLDEN/$1"
        passes=$((passes + 1))
    elif diff -u "$GOLDEN/$1" "$WORK/$1.norm" > "$WORK/$1.diff"; then
        passes=$((passes + 1))
    else
        fails=$((fails + 1))
        echo "FAIL: $1 differs from $GOLDEN/$1 (COW_UPDATE_GOLDEN=1 rewrites it):" >&2
        head -40 "$WORK/$1.diff" >&2
    fi
}

cd "$(dirname "$SAMPLES")" || exit 2
"$COW" ingest -q --db "$WORK/s.db" "$(basename "$SAMPLES")" > "$WORK/ingest" 2>&1
check "ingest exits 1 (samples/not-loaded holds a refused file)" test $? = 1
cd "$WORK" || exit 2
"$COW" runs --db s.db --json > runs.json
check "runs exits 0" test $? = 0
"$COW" analyze --db s.db --json > analyze.json
check "analyze exits 0" test $? = 0
# the real captures whose tail rose: a lift, or a ? naming what it lacks
python3 "$HERE/real_saves.py" analyze.json > real-saves.txt
check "real saves: a lift at p99 / p99.9 or a measured shortfall; readonly-control no lift" test $? = 0
"$COW" doctor --db s.db --json > doctor.json
check "doctor exits 0" test $? = 0
# the facts the doctor read, as columns (run_facts)
"$COW" runs --db s.db --json > runs-facts.json
check "runs after doctor exits 0" test $? = 0
"$COW" check --db s.db --json --thresholds "$SAMPLES/fleet/thresholds.json" > check.json
check "check exits 0 (after Holm no host fails)" test $? = 0
"$COW" report --db s.db --out report --created 1796000000 > report.out
check "report exits 0" test $? = 0
cp report/summary.md summary.md
# the answer table, one document rendered three ways: the same cells in
# summary.md, index.html (parsed) and the workbook's first sheet, and each
# row's numbers read against each other (before + delta = during, the
# threshold named is the one used, a lift's gate does not contradict it)
python3 "$HERE/answer_table.py" --check-rules report > answer-table.tsv
check "answer table: one document, three renderings, rows that add up" test $? = 0
# the workbook opens with the same answers and inputs, quantiles in the one format
unzip -p report/report.xlsx xl/workbook.xml > workbook.xml 2>/dev/null
check "workbook: the answer table first, Answers and Inputs after it" \
    test "$(grep -o '<sheet name="[^"]*"' workbook.xml | head -3 | tr '\n' ' ')" = '<sheet name="Answer" <sheet name="Answers" <sheet name="Inputs" '
unzip -p report/report.xlsx xl/sharedStrings.xml > strings.xml 2>/dev/null
check "workbook: an answer's quantile as summary.md shows it" has '4.020 (&gt;= 1.029)' strings.xml
check "workbook: the refused file" has 'probe-no-unit.csv' strings.xml
# the first screen an on-call engineer reads: everything above the tables
sed '/^## Headline/,$d' summary.md > first-screen.md
check "first screen: the answer table comes first" \
    test "$(grep -m1 -n '^| run | event, when |' first-screen.md | cut -d: -f1)" -lt "$(grep -m1 -n '^- \*\*' first-screen.md | cut -d: -f1)"
check "first screen: one answer per run with estimate and bound" \
    has '^- \*\*bgsave-t2\*\*: bgsave at .*: p99.9 4.020 (\\>= 1.029) ms -\\> 11.321 (\\>= 3.687) ms: lift +7.301 (\\>= +0.125) ms' first-screen.md
check "first screen: the quiet runs counted in one line" has '^[0-9]* other runs have nothing to report: ' first-screen.md
check "first screen: the verdict words explained once" test "$(grep -c 'How to read these: lift' first-screen.md)" = 1
check "first screen: the refused file, why and what to do" \
    has '^- \*\*not-loaded\*\*: `samples/not-loaded/probe-no-unit.csv` line 1: refused, .*has no unit.* Do: ' first-screen.md
check "first screen: the unrecognised file" \
    has '^- \*\*not-loaded\*\*: `samples/not-loaded/operator-notes.md`: not recognised' first-screen.md
check "first screen: the exit status explained" has 'exits 1 (some input rejected)' first-screen.md
check "first screen: no bound alone (every >= follows an estimate)" \
    test "$(grep -c '| \\\\>=\|→ \\\\>=\|-\\\\> \\\\>=\|^\\\\>=' first-screen.md)" = 0

golden runs.json
golden runs-facts.json
golden analyze.json
golden doctor.json
golden check.json
golden summary.md
golden first-screen.md
golden answer-table.tsv
finish
