#!/bin/bash
# noexport.sh COWTAIL -- a cowtail built with COWTAIL_EXPORT=OFF: export
# says it was built without export and how to get it, exit 2, and writes
# nothing; its help is still there (the manual lists every command).
set -u
COW=$1
. "$(dirname "$0")/lib.sh"

"$COW" export --jsonl "$WORK/out" > "$WORK/o" 2> "$WORK/e"
check "export: exit 2" test $? = 2
check "export: says why" has "^cowtail: export: this cowtail was built without export (cmake -DCOWTAIL_EXPORT=OFF); build it with -DCOWTAIL_EXPORT=ON" "$WORK/e"
check "export: nothing on stdout" test ! -s "$WORK/o"
check "export: nothing written" test ! -e "$WORK/out"
"$COW" export --help > "$WORK/h"
check "export --help: exit 0" test $? = 0
check "export --help: the usage" has "^usage: cowtail export" "$WORK/h"
finish
