# lib.sh -- what the hostile-input scripts share: every case runs under a
# timeout (no case may hang) with its output in $WORK/NAME.out.
T=${COW_HOSTILE_TIMEOUT:-60}

run() { # run NAME CMD...: stdout+stderr in $WORK/NAME.out, exit code in rc
    local name=$1; shift
    timeout "$T" "$@" > "$WORK/$name.out" 2>&1
    rc=$?
}
mk() { mkdir -p "$WORK/$1"; printf '%s' "$WORK/$1"; }
EPOCH=1796028608
# A build without export (COWTAIL_EXPORT=OFF: COW_EXPORT=0 from ctest) has
# no export to check.
export_built() { [ "${COW_EXPORT:-1}" = 1 ]; }
