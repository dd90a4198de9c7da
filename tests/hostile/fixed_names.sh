#!/bin/bash
# fixed_names.sh SOURCE_DIR -- no path, label or name in a fixed-size
# buffer: a long label, host or --out would be cut (or a message would
# name a file that is not there). Such text is built with xasprintf
# (common/mem.h) or a cow_sbuf (common/strbuf.h). A grep of the sources
# for `char x[N]` whose name says path, name, label, file, stem, dir, host,
# href, title, id, url, uri, db, shm or src; every one found must be in one
# of the two lists below, and every entry of a list must still be found (so
# the lists only shrink). Entries are FILE:NAME:SIZE, without line numbers.
set -u
SRC=$1
cd "$SRC" || exit 2

# Not a path, label or name a user gives: each with its reason.
ALLOW='
# names of the input grammar, each bounded by a named limit the parser
# refuses beyond (a longer one is a rejected line, never cut)
ingest/config.c:name:CONFIG_NAME_MAX
ingest/info.c:name:INFO_NAME_MAX
ingest/kfile.c:path:KF_KEY_MAX
ingest/procfs.c:path:KF_KEY_MAX
ingest/smaps.c:path:KF_KEY_MAX
ingest/redisconf.c:name:RC_NAME_MAX
ingest/latmon_int.h:name_event:LM_NAME_MAX
ingest/kfile.h:name:KF_SMAPS_NAME_MAX
# a server run_id: 40 hex digits by the protocol
ingest/info.c:run_id:48
ingest/info.c:prev_run_id:48
store/store.h:run_id:48
# the host name gethostname gives: HOST_NAME_MAX (64) by the kernel
store/store_ingest.c:name:256
# the replica host of --trigger replicaof=HOST:PORT: a DNS name (253
# bytes by RFC 1035), refused beyond, never cut (capture/cap.h)
cli/cmd_capture.c:rhost:CAP_HOST_MAX
# the lock holder shown as "cowtail CMD", CMD cut at 40 on purpose
store/store_lock.c:name:80
'

# Paths, labels and names still in fixed buffers: known debt (issue 36,
# "the house"), to be converted; remove the entry with the buffer.
PENDING='
'

files=$(find app report store ingest cli export -name '*.[ch]' 2>/dev/null | sort)
found=$(grep -nE '^\s*(static )?(const )?(unsigned )?char [^;(]*\[[^]]+\]' $files |
  perl -ne 'if (/^([^:]+):(\d+):\s*(?:static\s+)?(?:const\s+)?(?:unsigned\s+)?char\s+([^;]*)/) {
      my ($f, $decl) = ($1, $3); $decl =~ s/=.*//;
      for my $d (split /,/, $decl) {   # char *a, b[N]: only b is a buffer
          next unless $d =~ /^\s*([A-Za-z_]\w*)\s*\[([^\]]+)\]/; my ($n, $sz) = ($1, $2);
          print "$f:$n:$sz\n" if $n =~ /(^|_)(path|paths|name|names|label|labels|file|files|stem|dir|host|rhost|href|title|id|url|uri|db|shm|src|fname)(_|\d|$)/; } }' |
  sort -u)
listed=$(printf '%s\n%s\n' "$ALLOW" "$PENDING" | grep -v '^#' | grep -v '^$' | sort -u)
new=$(comm -23 <(echo "$found") <(echo "$listed"))
gone=$(comm -13 <(echo "$found") <(echo "$listed"))
fails=0
if [ -n "$new" ]; then
    echo "FAIL: a path, label or name in a fixed-size buffer (build it with xasprintf or a cow_sbuf):" >&2
    echo "$new" >&2
    fails=1
fi
if [ -n "$gone" ]; then
    echo "FAIL: listed in tests/hostile/fixed_names.sh but no longer there: remove the entry" >&2
    echo "$gone" >&2
    fails=1
fi
echo "fixed names: $(echo "$files" | wc -w) files, $(echo "$found" | grep -c .) buffers found," \
     "$(echo "$PENDING" | grep -v '^#' | grep -c .) still pending"
exit $fails
