#!/bin/bash
# helpman.sh COWTAIL MANPAGE SOURCE_DIR -- `cowtail help CMD` and the man
# page list the same options for every command, every option the help
# lists is one the command accepts, and every option in the command's
# getopt table (cli/cmd_CMD.c) is one the help lists.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 page=$2 src=$3

help_options() { # the options on the item lines of `cowtail help CMD`
    "$bin" help "$1" | sed -n -E 's/^ {2,4}(-[a-zA-Z], )?(--[a-z0-9][a-z0-9-]*).*/\2/p' | sort -u
}
man_options() { # the options the man page's item terms name under .SS CMD
    awk -v cmd="$1" '$0 == ".SS " cmd { on = 1; next }
                     /^\.S[SH] / { on = 0 }
                     on && prev == ".TP" { print }
                     { prev = $0 }' "$page" |
        sed 's/\\-/-/g' | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u
}

commands=$("$bin" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' |
           grep -vx help)
check "help lists commands" test -n "$commands"
for c in $commands; do
    help_options "$c" >"$WORK/help-$c"
    man_options "$c" >"$WORK/man-$c"
    check "$c: help lists options" test -s "$WORK/help-$c"
    if ! diff -u "$WORK/help-$c" "$WORK/man-$c" >"$WORK/diff-$c"; then
        echo "$c: help (-) and man page (+) disagree:" >&2
        cat "$WORK/diff-$c" >&2
    fi
    check "$c: help and man page list the same options" test ! -s "$WORK/diff-$c"
    # The getopt table holds exactly the options the help lists.
    # (the shared ones as CLI_OPT_DB, CLI_OPT_JSON, ... of cli/cli.h)
    { grep -oE '\{"[a-z0-9-]+", *(no|required|optional)_argument' "$src/cli/cmd_$c.c" |
          sed -E 's/\{"([^"]+)".*/--\1/'
      grep -oE '\bCLI_OPT_(DB|THRESHOLDS|JSON|JOBS|LATENCY_FROM|HELP)\b' "$src/cli/cmd_$c.c" |
          sed -E 's/CLI_OPT_(.*)/--\L\1/; s/_/-/g'
    } | grep -vx -- --help | sort -u >"$WORK/table-$c"
    grep -vx -- --help "$WORK/help-$c" >"$WORK/listed-$c"
    if ! diff -u "$WORK/listed-$c" "$WORK/table-$c" >"$WORK/tdiff-$c"; then
        echo "$c: help (-) and getopt table (+) disagree:" >&2
        cat "$WORK/tdiff-$c" >&2
    fi
    check "$c: help lists every option of its getopt table" test ! -s "$WORK/tdiff-$c"
    # Each listed option is known to the command's parser: with a value
    # it is consumed (or refused as a value), never an unknown option.
    while read -r opt; do
        [ "$opt" = --help ] && continue
        "$bin" "$c" "$opt=x" --help >/dev/null 2>"$WORK/err"
        if grep -q "unknown option" "$WORK/err"; then
            echo "$c $opt: $(cat "$WORK/err")" >&2
            check "$c accepts $opt" false
        else
            check "$c accepts $opt" true
        fi
    done <"$WORK/help-$c"
done
# Every man page section a reader looks for.
for s in NAME SYNOPSIS DESCRIPTION COMMANDS "FILE FORMATS" "EXIT STATUS" ENVIRONMENT; do
    check "man page has $s" grep -qx ".SH $s" "$page"
done
finish
