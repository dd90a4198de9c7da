#!/bin/bash
# app_quiet.sh CC DIR -- app/ decides and never prints (docs/architecture.md):
# no C file or header of DIR writes to stdout or stderr, names them, or
# calls printf, vprintf, puts, putchar or perror; what a use case says goes
# through the sink cli/ registers (app_say, app_error, app_progress in
# app/msg.c). Comments are stripped first (CC -fpreprocessed), strings are
# not. Writing a file the use case produces (fprintf(fp, ...)) is allowed.
# Each violation is printed as FILE:LINE: TEXT; exit 1 when there is one.
set -u
CC=$1
DIR=$2
bad=0
for f in "$DIR"/*.c "$DIR"/*.h; do
    [ -e "$f" ] || continue
    # -P drops the line markers; keep them (no -P) to map lines back
    "$CC" -fpreprocessed -dD -E -x c "$f" 2>/dev/null |
    awk -v file="$f" '
        /^# [0-9]+ "/ { line = $2 - 1; next }
        { line++ }
        /(^|[^A-Za-z0-9_])(stdout|stderr)([^A-Za-z0-9_]|$)|(^|[^A-Za-z0-9_.>])(printf|vprintf|puts|putchar|perror)[ \t]*\(/ {
            printf "%s:%d: %s\n", file, line, $0; found = 1
        }
        END { exit found }' || bad=1
done
if [ "$bad" = 1 ]; then
    echo "app/ prints: say it through app_say / app_error (app/msg.c) and let cli/ print it" >&2
    exit 1
fi
echo "app/ prints nothing"
