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

status=0
for p in "${parsers[@]}"; do
    work=$build/fuzz-work/$p crashes=$build/fuzz-work/crashes/$p
    mkdir -p "$work" "$crashes" "$here/corpus/$p"
    echo "== $p (${secs}s)"
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
        >"$build/fuzz-work/$p.log" 2>&1 || status=1
    tail -n 3 "$build/fuzz-work/$p.log" | sed 's/^/   /'
    ls "$crashes" | sed 's/^/   artifact: /'
done
exit $status
