#!/usr/bin/env bash
# run.sh -- run the libFuzzer target once per parser, bounded.
#
#   tests/fuzz/run.sh BUILD_DIR [SECONDS] [PARSER...]
#
# BUILD_DIR was configured with CC=clang -DCOW_FUZZ=ON. Parsers default to
# every row of ingest/detect.c (fuzz_replay --list). New inputs go to
# BUILD_DIR/fuzz-work/<parser>/ (the seed corpus under tests/fuzz/corpus is
# only read); crashes land in BUILD_DIR/fuzz-work/crashes/<parser>/.
# Extra libFuzzer flags go in $COW_FUZZ_FLAGS, e.g. "-fork=1
# -ignore_crashes=1" to keep going past the first crash.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run.sh BUILD_DIR [SECONDS] [PARSER...]}
secs=${2:-120}
shift $(( $# >= 2 ? 2 : 1 ))
fuzzer=$build/tests/fuzz_parser
replay=$build/tests/fuzz_replay
[ -x "$fuzzer" ] || { echo "run.sh: no $fuzzer: configure with CC=clang -DCOW_FUZZ=ON" >&2; exit 2; }
if [ $# -gt 0 ]; then parsers=("$@"); else mapfile -t parsers < <("$replay" --list); fi

# Up to $COW_FUZZ_JOBS parsers at once (default: the machine's cores);
# each one's summary is printed in the list's order once it has finished.
jobs=${COW_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1

fuzz_one() {
    local p=$1 work=$build/fuzz-work/$1 crashes=$build/fuzz-work/crashes/$1 max_len
    mkdir -p "$work" "$crashes" "$here/corpus/$p"
    # where the cost grows with the input's size (a whole-document JSON,
    # a key index), inputs up to 1 MiB: at 64 KiB the quadratic memtier
    # key search (32,000 escaped keys in 1.1 MB) was out of reach
    case $p in
        memtier-json|latency-json|run-json|thresholds|json-strict) max_len=1048576 ;;
        *) max_len=65536 ;;
    esac
    COW_FUZZ_PARSER=$p "$fuzzer" "$work" "$here/corpus/$p" \
        -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -max_len="$max_len" \
        -artifact_prefix="$crashes/" -print_final_stats=1 ${COW_FUZZ_FLAGS:-} \
        >"$build/fuzz-work/$p.log" 2>&1
}

report_one() {
    local p=$1
    echo "== $p (${secs}s)"
    tail -n 3 "$build/fuzz-work/$p.log" | sed 's/^/   /'
    ls "$build/fuzz-work/crashes/$p" | sed 's/^/   artifact: /'
}

status=0
pids=() names=()
reap() { # wait for the oldest running parser, report it in order
    wait "${pids[0]}" || status=1
    report_one "${names[0]}"
    pids=("${pids[@]:1}") names=("${names[@]:1}")
}
for p in "${parsers[@]}"; do
    [ ${#pids[@]} -ge "$jobs" ] && reap
    fuzz_one "$p" &
    pids+=($!) names+=("$p")
done
while [ ${#pids[@]} -gt 0 ]; do reap; done
exit $status
