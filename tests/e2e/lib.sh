# lib.sh -- what the end-to-end scripts share: a scratch folder, counted
# checks, and small readers of cowtail's output. Sourced, not run.
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fails=0 passes=0

check() { # check NAME COMMAND...: counts a pass or prints the failure
    local name=$1; shift
    if "$@"; then passes=$((passes + 1)); else
        fails=$((fails + 1)); echo "FAIL: $name" >&2; fi
}
has() { grep -q -- "$1" "$2"; }
not_has() { ! grep -q -- "$1" "$2"; }
json_field() { # json_field FILE LABEL KEY -> value of the first KEY in the run LABEL
    tr -d '\n\t ' < "$1" | sed 's/},{/}\n{/g' | grep "\"label\":\"$2\"" |
        grep -o "\"$3\":[^,}]*" | head -1 | sed "s/^\"$3\"://"
}
finish() { # the closing line ctest shows, and the exit status
    echo "$passes passed, $fails failed"
    test "$fails" = 0
}
