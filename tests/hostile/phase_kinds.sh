#!/bin/bash
# phase_kinds.sh SOURCE_DIR -- a phase kind is enum cow_phase_kind
# everywhere: its names live in one table (analysis/phase.c, with
# phase_kind_name / phase_kind_from_name) and no other file compares a kind
# with a name, in C (strcmp(x->kind, "baseline")) or in SQL
# (kind = 'after'), nor by a prefix (strncmp(kind, "aof", 3)): a renamed
# kind would leave such a compare false. (A run's mode, "forkless", is no
# phase kind: it is not a kind's compare and stays a string.)
set -u
SRC=$1
cd "$SRC" || exit 2
names='baseline|bgsave|sync-disk|sync-diskless|aof-rewrite|forkless|between|after'
files=$(find app analysis cli common export ingest report store -name '*.[ch]' 2>/dev/null |
        grep -v '^analysis/phase\.c$' | sort)
hits=$( (grep -nE "str(n|case|ncase)?cmp\([^;]*kind[^;]*\"($names)\"" $files
         grep -nE "str(n|case|ncase)?cmp\([^;]*\"($names)\"[^;]*kind" $files
         grep -nE "strn(case)?cmp\([^;]*kind[^;]*\"[a-z_-]+\"" $files
         grep -nE "kind\s*(=|==|!=|<>|IN)\s*\(?\s*'($names)'" $files) | sort -u)
if [ -n "$hits" ]; then
    echo "FAIL: a phase kind compared as a string (use phase_kind_from_name and enum cow_phase_kind, analysis/phase.h)" >&2
    echo "$hits" >&2
    exit 1
fi
echo "phase kinds: $(echo "$files" | wc -l) files checked, none compares a kind by name"
