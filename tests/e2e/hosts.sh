#!/bin/bash
# hosts.sh COWTAIL SAMPLES -- end-to-end: a run's host is what the capture
# says (run.json "host", or ingest --host), NULL when nothing says, and
# never the name of the machine that ingested it (runs.ingested_on);
# merging never joins two sources' runs of unknown host, and merging one
# source again finds its runs (identity stays).
set -u
COW=$1
SAMPLES=$2
. "$(dirname "$0")/lib.sh"

THIS=$(hostname)
# a capture without a host: bgsave-t1 with run.json's "host" line taken out
nohost() { # nohost SRC DEST
    mkdir -p "$2" && cp -r "$1"/. "$2"/ &&
        sed -i -e '/"host":/d' -e 's/"label": "[^"]*"/"label": "bgsave"/' "$2/run.json"
}
nohost "$SAMPLES/bgsave-t1" "$WORK/one/bgsave"
nohost "$SAMPLES/bgsave-t2" "$WORK/two/bgsave"
(cd "$WORK/one" && "$COW" ingest -q --db "$WORK/u1.db" bgsave > /dev/null)
(cd "$WORK/two" && "$COW" ingest -q --db "$WORK/u2.db" bgsave > /dev/null)
sq() { sqlite3 "$1" "$2"; }
check "no host in run.json: the run's host is NULL" test \
  "$(sq "$WORK/u1.db" "SELECT count(*) FROM runs WHERE label = 'bgsave' AND host IS NULL")" = 1
check "the ingesting machine is kept apart, as ingested_on" test \
  "$(sq "$WORK/u1.db" "SELECT ingested_on FROM runs WHERE label = 'bgsave'")" = "$THIS"
"$COW" runs --db "$WORK/u1.db" --json > "$WORK/runs.json"
check "runs --json: host null" test "$(json_field "$WORK/runs.json" bgsave host)" = null
check "runs --json: ingested_on names this machine" test \
  "$(json_field "$WORK/runs.json" bgsave ingested_on)" = "\"$THIS\""

# --host names it (and overrides run.json's)
(cd "$WORK/one" && "$COW" ingest -q --db "$WORK/h.db" --host cache-q bgsave > /dev/null)
"$COW" ingest -q --db "$WORK/h.db" --host cache-r "$SAMPLES/bgsave-t3" > /dev/null
check "--host gives the host" test \
  "$(sq "$WORK/h.db" "SELECT label || '=' || host FROM runs ORDER BY label" | tr '\n' ' ')" = \
  "bgsave=cache-q bgsave-t3=cache-r "
"$COW" ingest -q --db "$WORK/h.db" --host '' "$SAMPLES/steady" > "$WORK/empty" 2>&1
check "--host '' refused (exit 2)" test $? = 2
check "--host '' said" has "an empty name is no host" "$WORK/empty"

# two sources' runs of unknown host and one label stay two runs
"$COW" merge "$WORK/out.db" "$WORK/u1.db" "$WORK/u2.db" > "$WORK/m1" 2>&1
check "merge exits 0" test $? = 0
check "two unknown hosts' runs of one label: two runs" test \
  "$(sq "$WORK/out.db" "SELECT count(*), count(host) FROM runs")" = "2|0"
check "the second is renamed after its source" test \
  "$(sq "$WORK/out.db" "SELECT label FROM runs ORDER BY label" | tr '\n' ' ')" = "bgsave u2/bgsave "
check "their samples stay apart" test \
  "$(sq "$WORK/out.db" "SELECT group_concat(n, ' ') FROM (SELECT count(*) AS n FROM samples s JOIN runs r ON r.id = s.run GROUP BY r.label ORDER BY r.label)")" = \
  "$(sq "$WORK/u1.db" "SELECT count(*) FROM samples") $(sq "$WORK/u2.db" "SELECT count(*) FROM samples")"
# the same source again: its runs found, nothing added
"$COW" merge "$WORK/out.db" "$WORK/u1.db" "$WORK/u2.db" > "$WORK/m2" 2>&1
check "merging again adds no run" test "$(sq "$WORK/out.db" "SELECT count(*) FROM runs")" = 2
check "merging again adds no sample" test \
  "$(sq "$WORK/out.db" "SELECT count(*) FROM samples")" = \
  "$(( $(sq "$WORK/u1.db" "SELECT count(*) FROM samples") + $(sq "$WORK/u2.db" "SELECT count(*) FROM samples") ))"

# a run of unknown host ingested here never joins the run of a host that
# happens to bear this machine's name
mkdir -p "$WORK/named" && nohost "$SAMPLES/bgsave-t2" "$WORK/named/bgsave"
sed -i "s/\"label\": \"bgsave\",/\"label\": \"bgsave\", \"host\": \"$THIS\",/" "$WORK/named/bgsave/run.json"
(cd "$WORK/named" && "$COW" ingest -q --db "$WORK/n.db" bgsave > /dev/null)
"$COW" merge "$WORK/out2.db" "$WORK/n.db" "$WORK/u1.db" > /dev/null 2>&1
check "unknown host vs the host named like this machine: two runs" test \
  "$(sq "$WORK/out2.db" "SELECT count(*), count(host) FROM runs")" = "2|1"
check "the known host's run keeps its samples only" test \
  "$(sq "$WORK/out2.db" "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run WHERE r.host = '$THIS'")" = \
  "$(sq "$WORK/n.db" "SELECT count(*) FROM samples")"
check "merge keeps ingested_on" test \
  "$(sq "$WORK/out2.db" "SELECT count(*) FROM runs WHERE ingested_on = '$THIS'")" = 2

# a database from before migration 017, and a copy of it merged there:
# the merge wrote the ingesting machine as the host of a run whose
# run.json named none; migrated, that host is unknown again, and both
# copies of the run keep one identity (uid from ingested_on and created_at)
SCHEMAS=$(dirname "$SAMPLES")/schemas
old_db() { # old_db FILE HOST_OF_RUN_OLD: schema 010 with two runs
    cat "$SCHEMAS"/00[0-9]_*.sql "$SCHEMAS"/010_*.sql | grep -v '^--' |
        sqlite3 "$1" && sqlite3 "$1" "PRAGMA user_version = 10;
      INSERT INTO runs(id, label, host, meta, created_at) VALUES
        (1, 'old', $2, '{\"label\": \"old\"}', 1700000000),
        (2, 'named', 'vmx', '{\"label\": \"named\", \"host\": \"vmx\"}', 1700000001);
      INSERT INTO files(run, path, size, sha256, parser, ingested_at, host) VALUES
        (1, 'old/latency.csv', 1, 'aa', 'csv', 1700000000, 'vmx'),
        (2, 'named/latency.csv', 1, 'bb', 'csv', 1700000001, 'vmx')"
}
old_db "$WORK/old.db" NULL
old_db "$WORK/oldmerged.db" "'vmx'"
"$COW" runs --db "$WORK/old.db" > /dev/null 2>&1
"$COW" runs --db "$WORK/oldmerged.db" > /dev/null 2>&1
check "migrated: a merge's inferred host is unknown again, run.json's stays" test \
  "$(sq "$WORK/oldmerged.db" "SELECT label || '=' || coalesce(host, 'NULL') || '/' || ingested_on FROM runs ORDER BY id" | tr '\n' ' ')" = \
  "old=NULL/vmx named=vmx/vmx "
check "migrated: both copies of the run have one uid" test \
  "$(sq "$WORK/old.db" "SELECT uid FROM runs WHERE label = 'old'")" = \
  "$(sq "$WORK/oldmerged.db" "SELECT uid FROM runs WHERE label = 'old'")"
"$COW" merge "$WORK/oldmerged.db" "$WORK/old.db" > /dev/null 2>&1
check "migrated copies merged: still two runs" test "$(sq "$WORK/oldmerged.db" "SELECT count(*) FROM runs")" = 2

# the export names no host for it: '' (ClickHouse keys are not NULL), and
# ingested_on apart
if "$COW" export --db "$WORK/u1.db" --jsonl "$WORK/x" > /dev/null 2>&1; then
    check "export: host '' and ingested_on" has \
      "\"host\":\"\",\"run\":\"bgsave\".*\"ingested_on\":\"$THIS\"" "$WORK/x/runs.jsonl"
fi
finish
