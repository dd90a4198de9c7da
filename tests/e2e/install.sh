#!/bin/bash
# install.sh BUILD_DIR SOURCE_DIR -- `cmake --install` into a scratch
# prefix gives the binary, the man page, the completion and the documents;
# the installed binary runs, its page renders without a groff warning and
# its completion knows the commands, options and parsers.
set -u
. "$(dirname "$0")/lib.sh"
build=$1 src=$2
prefix="$WORK/prefix with space"

check "cmake --install into a scratch prefix" \
    cmake --install "$build" --prefix "$prefix" >"$WORK/install.log" 2>&1
for f in bin/cowtail share/man/man1/cowtail.1.gz \
         share/bash-completion/completions/cowtail share/doc/cowtail/README.md \
         share/doc/cowtail/formats.md share/doc/cowtail/thresholds.schema.json; do
    check "installed $f" test -s "$prefix/$f"
done
check "installed binary runs" "$prefix/bin/cowtail" --version >"$WORK/version" 2>&1
check "version names cowtail" grep -Eq '^cowtail [0-9]+\.[0-9]+\.[0-9]+' "$WORK/version"
for lib in SQLite cJSON cairo libxlsxwriter; do
    check "version names $lib" grep -Eq "^$lib [0-9]+\.[0-9]+" "$WORK/version"
done

# The git revision: named when built from a checkout, empty (and no
# failure) from an exported tree, also one unpacked inside another checkout.
if git -C "$src" rev-parse --show-toplevel 2>/dev/null | grep -qx "$(cd "$src" && pwd -P)"; then
    check "version names the git revision" grep -Eq '^cowtail .* \(git [0-9a-f]+' "$WORK/version"
fi
mkdir -p "$WORK/export"
check "gitrev outside a checkout" \
    cmake -DSRC="$WORK/export" -DOUT="$WORK/rev.h" -P "$src/cmake/gitrev.cmake"
check "no revision outside a checkout" grep -qx '#define COW_GIT_REV ""' "$WORK/rev.h"
check "gitrev in a subfolder of a checkout" \
    cmake -DSRC="$src/cmake" -DOUT="$WORK/rev2.h" -P "$src/cmake/gitrev.cmake"
check "no revision of an enclosing checkout" grep -qx '#define COW_GIT_REV ""' "$WORK/rev2.h"

# The page renders, with every groff warning turned on and none given.
gzip -dc "$prefix/share/man/man1/cowtail.1.gz" >"$WORK/cowtail.1"
check "installed page is the built one" cmp -s "$WORK/cowtail.1" "$build/cowtail.1"
if command -v groff >/dev/null; then
    groff -man -Tutf8 -ww -z "$WORK/cowtail.1" >"$WORK/groff.err" 2>&1
    check "man page renders without warnings" test ! -s "$WORK/groff.err"
    cat "$WORK/groff.err" >&2
fi

# Completion, from the installed script against the installed binary.
complete_words() { # complete_words WORDS... -> what TAB offers after them
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _cowtail
             printf "%s\n" "${COMPREPLY[@]}"' _ \
        "$prefix/share/bash-completion/completions/cowtail" "$prefix/bin/cowtail" "$@"
}
check "completes commands" test "$(complete_words re | tr '\n' ' ')" = "rejects report "
check "completes options" test "$(complete_words report --s | tr '\n' ' ')" = "--scale --seed "
check "completes parser names" \
    test "$(complete_words ingest --parser redis-l | tr '\n' ' ')" = "redis-log redis-latency "
check "completes help topics" test "$(complete_words help fo | tr '\n' ' ')" = "formats "
finish
