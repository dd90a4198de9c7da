#!/bin/bash
# one_writer.sh SOURCE_DIR -- every file cowtail writes goes through
# common/outfile.c (a new temporary file from mkostemp beside the target,
# renamed over it: never through a planted link, never half-written), and
# no path is built in a fixed buffer a long --out would cut. A grep over
# the sources: a new fopen(..., "w") or `char path[1024]` fails here.
set -u
SRC=$1
cd "$SRC" || exit 2
fails=0
# the program's sources (tests, samples and benchmarks are not cowtail)
files=$(find app capture cli common ingest report store analysis tools export -name '*.[ch]' 2>/dev/null |
        grep -v '^common/outfile\.c$' | sort)

bad() { echo "FAIL: $1" >&2; echo "$2" >&2; fails=$((fails + 1)); }

# opening for writing: fopen/fdopen/freopen with a w, a or + mode, open or
# openat with O_CREAT/O_WRONLY/O_RDWR, creat, mkstemp, rename, tmpfile
# The one other writer: the capture's live files (capture/cap_util.c,
# cap_create: O_NOFOLLOW | O_EXCL, appended while the capture runs, so a
# killed capture leaves what it wrote readable under its own name).
hits=$(grep -nE 'f(re)?open[a-z]*\([^;]*"[^"]*[wa+][^"]*"|[^_a-z]open(at)?\([^;]*O_(CREAT|WRONLY|RDWR)|O_CREAT|[^_a-z]creat\(|mk[a-z]*temp[a-z]*\(|[^_a-z]rename(at)?\(|tmpfile\(' $files |
       grep -v 'fopencookie' | grep -v '^capture/cap_util.c:.*int fd, flags = O_WRONLY | O_CREAT | O_NOFOLLOW' |
       grep -v '^capture/cap_runjson.c:.*int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);')
# (and its run.json, reserved by cap_create at the start and overwritten in
# place at the end, never created there, so a full disk still gets it)
[ -n "$hits" ] && bad "a file opened for writing outside common/outfile.c (use outfile_open)" "$hits"

# paths in fixed buffers: a local or file-level char path[N], dir[N],
# final[N], marker[N] in a .c file (the headers' structs hold
# copies of stored paths for messages, never opened or created; procfs
# section keys, named path in the capture, are keys never opened)
cfiles=$(echo "$files" | grep '\.c$')
hits=$(grep -nE '^\s*(static )?(const )?char [^;(=]*[^a-z_]?(path|dir|final|marker|fname)[a-z_0-9]*\[[^]]' $cfiles |
       grep -v 'char path\[KF_KEY_MAX\]' |
       grep -vE '^capture/cap_(poll|run|server)\.c:[0-9]+: +char path\[(64|96|128)\]')
# (the capture's char path[64..128] hold /proc/<pid>/... and
# /proc/sys/<a fixed sysctl name>: numbers and constants, never --out)
[ -n "$hits" ] && bad "a path in a fixed buffer (build it with outfile_join or xasprintf)" "$hits"

# the program writes nothing with fputs/fwrite to a FILE it opened by name
# except through cow_outfile: checked above by the open itself
echo "one writer: $(echo "$files" | wc -l) files checked, $fails failed"
test "$fails" = 0
