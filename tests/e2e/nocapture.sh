#!/bin/bash
# nocapture.sh COWTAIL -- a cowtail built with COWTAIL_CAPTURE=OFF: capture
# says it was built without capture and how to get it, exit 2, and writes
# nothing; its help is still there (the manual lists every command).
set -u
COW=$1
. "$(dirname "$0")/lib.sh"

"$COW" capture --port 6379 --out "$WORK/out" > "$WORK/o" 2> "$WORK/e"
check "capture: exit 2" test $? = 2
check "capture: says why" has "^cowtail: capture: this cowtail was built without capture (cmake -DCOWTAIL_CAPTURE=OFF); build it with -DCOWTAIL_CAPTURE=ON" "$WORK/e"
check "capture: nothing on stdout" test ! -s "$WORK/o"
check "capture: nothing written" test ! -e "$WORK/out"
"$COW" capture --help > "$WORK/h"
check "capture --help: exit 0" test $? = 0
check "capture --help: the usage" has "^usage: cowtail capture" "$WORK/h"
finish
