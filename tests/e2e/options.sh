#!/bin/bash
# options.sh COWTAIL CAPTURE -- every bad option, value or argument exits
# with its code and says what is wrong and which help to read; report's
# output folder is its own; report and check read a thresholds file alike.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 capture=$2
cd "$WORK" || exit 2

# expect CODE MESSAGE ARGS...: cowtail ARGS exits CODE and its stderr holds
# MESSAGE (a fixed string; "" for none).
expect() {
    local code=$1 msg=$2; shift 2
    "$bin" "$@" >"$WORK/out" 2>"$WORK/err"
    local rc=$?
    if [ "$rc" != "$code" ] || { [ -n "$msg" ] && ! grep -qF -- "$msg" "$WORK/err"; }; then
        echo "cowtail $*: exit $rc (expected $code), stderr: $(cat "$WORK/err")" >&2
        check "cowtail $*" false
    else
        check "cowtail $*" true
    fi
}

not_in() { ! grep -qF -- "$1" "$2"; }

# Numeric values: one strict parser (common/optval.c) for every option.
expect 2 "--seed: 'abc' is not an integer (see 'cowtail help report')" report --seed abc
expect 2 "--seed: '-5' is negative (expected 0 to 18446744073709551615)" diff --seed -5 a b
expect 2 "--seed: '99999999999999999999' is out of range" tradeoff --seed 99999999999999999999
expect 2 "--seed: '12x' is not an integer (see 'cowtail help analyze')" analyze --seed 12x
expect 2 "--seed: '' is not an integer" report --seed=
expect 2 "--resamples: '5' is out of range (expected 99 to" report --resamples 5
expect 2 "--resamples: '1e3' is not an integer (see 'cowtail help diff')" diff --resamples 1e3 a b
expect 2 "--resamples: '99.5' is not an integer" analyze --resamples 99.5
expect 2 "--scale: '2x' is not a number (see 'cowtail help report')" report --scale 2x
expect 2 "--scale: '9' is out of range (expected 0.5 to 4)" report --scale 9
expect 2 "--created: 'yesterday' is not an integer" report --created yesterday
expect 2 "--created: '-1' is out of range" report --created -1
expect 2 "--log-year: '20x5' is not an integer (see 'cowtail help ingest')" ingest --log-year 20x5 x
expect 2 "--log-year: '1800' is out of range (expected 1970 to 2100)" ingest --log-year 1800 x
expect 2 "--method: 'mean' is not linear or nearest (see 'cowtail help analyze')" \
    analyze --method mean
# Impossible dates: the one ISO 8601 parser refuses them everywhere.
expect 2 "--t0: '2023-02-31T10:00:00Z' is not an epoch (s, ms, us) or an ISO 8601 time" \
    ingest --db "$WORK/t0.db" --t0 2023-02-31T10:00:00Z "$capture"
# --t0 is the whole argument (it was pasted into a JSON document, which took
# the rest as more of the document), refused before anything is read
expect 2 "--t0: '1796267959, \"zzz\": 1' is not an epoch (s, ms, us) or an ISO 8601 time that exists (see 'cowtail help ingest')" \
    ingest --db "$WORK/t0.db" --t0 '1796267959, "zzz": 1' "$capture"
expect 2 "--log-tz: 'Europe/Paris' is not an offset like +02:00, -0500 or UTC" \
    ingest --db "$WORK/t0.db" --log-tz Europe/Paris "$capture"
expect 2 "--parser: 'latency' is no parser of cowtail (see 'cowtail help ingest')" \
    ingest --db "$WORK/t0.db" --parser latency "$capture"
expect 2 "--latency-unit: 'furlongs' is not a time unit (ns, us, ms or s" \
    ingest --db "$WORK/t0.db" --latency-unit furlongs "$capture"
expect 2 "--time-unit: 'm' is not a time unit" ingest --db "$WORK/t0.db" --time-unit m "$capture"
expect 2 "--mem-unit: 'pages' is not a memory unit" ingest --db "$WORK/t0.db" --mem-unit pages "$capture"
check "a bad --t0, --log-tz, --parser or unit: no database opened" test ! -e "$WORK/t0.db"

# Options: unknown, ambiguous, missing or unwanted values, each naming the help.
expect 2 "report: unknown option '--colour' (see 'cowtail help report')" report --colour
expect 2 "runs: unknown option '--verbose' (see 'cowtail help runs')" runs --verbose
# rejects read its options with getopt's own messages and printed its whole usage
expect 2 "rejects: unknown option '--colour' (see 'cowtail help rejects')" rejects --colour
check "rejects: one line, not the usage" test "$(wc -l < "$WORK/err")" = 1
expect 2 "rejects: option '--db' needs a value (see 'cowtail help rejects')" rejects --db
expect 2 "report: option '--seed' needs a value (see 'cowtail help report')" report --seed
expect 2 "ingest: option '--db' needs a value (see 'cowtail help ingest')" ingest --db
expect 2 "runs: option '--json' takes no value (see 'cowtail help runs')" runs --json=yes
expect 2 "report: ambiguous option '--s' (--scale, --seed) (see 'cowtail help report')" \
    report --s 1
expect 2 "ingest: unknown option '-x' (see 'cowtail help ingest')" ingest -x
expect 2 "unknown command 'frobnicate' (see 'cowtail help')" frobnicate
expect 2 "unknown command 'frobnicate' (see 'cowtail help')" help frobnicate
expect 2 "unknown option '--verbose' (see 'cowtail help')" --verbose
expect 2 "check: --thresholds FILE is required (see 'cowtail help check')" check
expect 2 "ingest: no PATH given (see 'cowtail help ingest')" ingest
expect 2 "diff: give a base run and at least one run to compare (see 'cowtail help diff')" \
    diff onlyone
expect 0 "" report --help
check "a unique prefix is the option (getopt_long)" \
    "$bin" analyze --db "$WORK/none.db" --res 5 2>&1 | grep -qF -- "--resamples: '5'"

# report's folder: ./cowtail-report by default, marked, its own.
expect 0 "" report --db "$WORK/r.db" --resamples 99 "$capture"
check "report writes ./cowtail-report by default" test -s "$WORK/cowtail-report/summary.md"
check "report marks its folder" test -f "$WORK/cowtail-report/.cowtail-report"
expect 0 "" report --db "$WORK/r.db" --resamples 99
mkdir -p "$WORK/src" && echo "int main(void);" >"$WORK/src/main.c"
expect 2 "src: folder is not empty and was not written by cowtail report (no .cowtail-report in it)" \
    report --db "$WORK/r.db" --out src
check "a refused folder is left as it was" test "$(ls -A "$WORK/src")" = main.c
expect 0 "" report --db "$WORK/r.db" --resamples 99 --out src --force
check "--force writes and marks it" test -f "$WORK/src/.cowtail-report"
echo x >"$WORK/afile"
expect 2 "afile: exists and is not a folder" report --db "$WORK/r.db" --out afile
mkdir "$WORK/empty"
expect 0 "" report --db "$WORK/r.db" --resamples 99 --out empty

# One thresholds reader: report refuses what check refuses, with the
# same message, and finds a key check finds (past 4 KiB too).
printf '{"max_p999_lift_ms": "2"}' >"$WORK/t-string.json"
printf '{"max_p999_lift": 2}' >"$WORK/t-key.json"
for t in t-string t-key; do
    "$bin" check --db "$WORK/r.db" --thresholds "$WORK/$t.json" >/dev/null 2>"$WORK/check.err"
    msg=$(sed 's/^cowtail: //' "$WORK/check.err")
    check "check refuses $t" test -n "$msg"
    expect 2 "$msg" report --db "$WORK/r.db" --thresholds "$WORK/$t.json"
done
{ printf '{'; head -c 5000 /dev/zero | tr '\0' ' '; printf '"max_p999_lift_ms": 2}'; } \
    >"$WORK/t-long.json"
expect 0 "" report --db "$WORK/r.db" --resamples 99 --thresholds "$WORK/t-long.json"
check "report reads a limit past 4 KiB" not_in "has no max_p999_lift_ms" "$WORK/err"
finish
