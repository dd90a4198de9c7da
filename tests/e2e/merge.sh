#!/bin/bash
# merge.sh COWTAIL SAMPLES DATA -- end-to-end: cowtail merge of per-host
# databases: every row arrives once, a colliding label gets its host as a
# prefix, merging twice adds nothing, --results-only then a full merge
# completes the samples, a failing input leaves OUT as it was.
set -u
COW=$1
SAMPLES=$2
DATA=$3
. "$(dirname "$0")/lib.sh"

TABLES="runs files samples events info stats mem latmon intervals pctl rejects clocks
        analyses phases quantiles deltas exceed findings refusals checks procs servers
        server_files run_facts server_facts windows answers repl_syncs"
counts() { # counts DB -> "table rows" per line
    for t in $TABLES; do echo "$t $(sqlite3 "$1" "SELECT count(*) FROM $t")"; done
}
sum_counts() { # sum_counts DB... -> the per-table sums
    for db in "$@"; do counts "$db"; done | awk '{s[$1]+=$2} END {for (t in s) print t, s[t]}' | sort
}
F=$SAMPLES/fleet
"$COW" ingest -q --db "$WORK/a.db" "$F/cache-a" "$F/cache-b" > /dev/null
"$COW" doctor --db "$WORK/a.db" > /dev/null
"$COW" check --db "$WORK/a.db" --thresholds "$SAMPLES/fleet/thresholds.json" > /dev/null
"$COW" ingest -q --db "$WORK/b.db" "$F/cache-c" "$F/cache-d" > /dev/null
# rejected lines, refused files and percentile-only sources travel too
"$COW" ingest -q --db "$WORK/b.db" "$DATA/e2e/tree" "$DATA/e2e/bad" "$DATA/benchout" > /dev/null 2>&1
"$COW" doctor --db "$WORK/b.db" > /dev/null
"$COW" check --db "$WORK/b.db" --thresholds "$SAMPLES/fleet/thresholds.json" > /dev/null 2>&1
# a third host whose run has cache-a's label (copied capture, other host)
mkdir -p "$WORK/z"
cp -r "$F/cache-e/steady" "$WORK/z/steady"
cp -r "$F/cache-a/bgsave" "$WORK/z/bgsave"
sed -i 's/"host": "cache-a"/"host": "cache-z"/' "$WORK/z/bgsave/run.json"
"$COW" ingest -q --db "$WORK/z.db" "$WORK/z/steady" "$WORK/z/bgsave" > /dev/null

"$COW" merge "$WORK/out.db" "$WORK/a.db" "$WORK/b.db" "$WORK/z.db" > "$WORK/m1" 2>&1
check "merge exits 0" test $? = 0
check "collision said, with the host as prefix" has \
  "z.db: run 'fleet/cache-a/bgsave': the label is another host's run here: merged as 'cache-z/fleet/cache-a/bgsave'" "$WORK/m1"
check "every input run in OUT" test "$(sqlite3 "$WORK/out.db" "SELECT count(*) FROM runs")" = \
  "$(sum_counts "$WORK/a.db" "$WORK/b.db" "$WORK/z.db" | sed -n 's/^runs //p')"
check "a.db holds a host's verdict (cache-a, 2 runs)" test \
  "$(sqlite3 "$WORK/a.db" "SELECT count(*) FROM checks WHERE scope = 'host' AND host = 'cache-a'")" = 5
q="SELECT r.label, c.limit_name, c.value, c.p, c.p_adjusted, c.verdict, c.comparisons, c.detail
   FROM checks c JOIN runs r ON r.id = c.run WHERE r.label GLOB 'fleet/cache-[ab]/*' ORDER BY r.label, c.rowid"
check "check verdicts arrive unchanged" test "$(sqlite3 "$WORK/a.db" "$q" | md5sum)" = "$(sqlite3 "$WORK/out.db" "$q" | md5sum)"
check "those verdicts: 3 runs x 5 limits" test "$(sqlite3 "$WORK/a.db" "$q" | wc -l)" = 15
check "the host's verdict arrives" test \
  "$(sqlite3 "$WORK/out.db" "SELECT count(*), sum(runs) FROM checks WHERE scope = 'host' AND host = 'cache-a'")" = '5|10'
for t in rejects refusals pctl checks; do
    check "the inputs have $t rows (the copy is tested)" test "$(sqlite3 "$WORK/b.db" "SELECT count(*) FROM $t")" -gt 0
done
check "the renamed run keeps its host" test \
  "$(sqlite3 "$WORK/out.db" "SELECT host FROM runs WHERE label = 'cache-z/fleet/cache-a/bgsave'")" = cache-z
sum_counts "$WORK/a.db" "$WORK/b.db" "$WORK/z.db" > "$WORK/want"
counts "$WORK/out.db" | sort > "$WORK/got1"
check "every table: OUT holds the sum of the inputs" cmp "$WORK/want" "$WORK/got1"
q="SELECT s.seq, s.role, s.pid, s.port, x.pid, substr(f.path, -20) FROM servers s
   JOIN runs r ON r.id = s.run JOIN server_files x ON x.run = s.run AND x.server = s.seq
   JOIN files f ON f.id = x.file WHERE r.label = 'fleet/cache-c/fullsync' ORDER BY s.seq, f.path, x.pid"
check "servers and their files arrive (the file ids mapped)" test \
  "$(sqlite3 "$WORK/b.db" "$q" | md5sum)" = "$(sqlite3 "$WORK/out.db" "$q" | md5sum)"
check "servers were copied at all" test "$(sqlite3 "$WORK/out.db" "$q" | grep -c '|replica|')" -gt 0
check "files carry their origin" test \
  "$(sqlite3 "$WORK/out.db" "SELECT count(*) FROM files WHERE origin = '$WORK/b.db' AND sha256 GLOB '[0-9a-f]*' AND host IS NOT NULL")" = \
  "$(sqlite3 "$WORK/b.db" "SELECT count(*) FROM files")"
q="SELECT t_us, lat_us, seq FROM samples WHERE run = (SELECT id FROM runs WHERE label = 'fleet/cache-d/bgsave') ORDER BY t_us, seq"
check "a run's samples arrive unchanged" test "$(sqlite3 "$WORK/b.db" "$q" | md5sum)" = "$(sqlite3 "$WORK/out.db" "$q" | md5sum)"
q="SELECT d.q, d.delta_us, d.verdict FROM deltas d JOIN runs r ON r.id = d.run WHERE r.label = 'fleet/cache-a/bgsave' ORDER BY d.phase, d.q"
check "results arrive unchanged" test "$(sqlite3 "$WORK/a.db" "$q" | md5sum)" = "$(sqlite3 "$WORK/out.db" "$q" | md5sum)"
check "deltas were copied at all" test "$(sqlite3 "$WORK/out.db" "$q" | wc -l)" -gt 3
q="SELECT d.q, d.n_eff_base, d.n_eff_phase, d.method, d.p_up, d.p_down, d.test_level, x.clusters,
   x.p_more, u.n_eff FROM deltas d JOIN runs r ON r.id = d.run
   JOIN exceed x ON x.run = d.run AND x.phase = d.phase
   JOIN quantiles u ON u.run = d.run AND u.phase = d.phase AND u.q = d.q
   WHERE r.label = 'fleet/cache-a/bgsave' ORDER BY d.phase, d.q, x.base_q"
check "every result column arrives (n_eff, method, p-values, clusters)" test \
  "$(sqlite3 "$WORK/a.db" "$q" | md5sum)" = "$(sqlite3 "$WORK/out.db" "$q" | md5sum)"
check "those columns are filled in the input" test \
  "$(sqlite3 "$WORK/a.db" "SELECT count(*) FROM deltas WHERE method IS NOT NULL AND n_eff_base IS NOT NULL")" -gt 0

"$COW" merge "$WORK/out.db" "$WORK/a.db" "$WORK/b.db" "$WORK/z.db" > "$WORK/m2" 2>&1
check "merging again exits 0" test $? = 0
check "merging again adds nothing" cmp -s "$WORK/got1" <(counts "$WORK/out.db" | sort)
check "merging again says so" has "a.db: 3 runs (0 new, 0 renamed), 0 files new, $(sqlite3 "$WORK/a.db" "SELECT count(*) FROM files") already here, 0 samples" "$WORK/m2"

# results only, then the samples
"$COW" merge --results-only "$WORK/ro.db" "$WORK/a.db" > /dev/null
check "--results-only: no samples" test "$(sqlite3 "$WORK/ro.db" "SELECT count(*) FROM samples")" = 0
check "--results-only: the results" test "$(sqlite3 "$WORK/ro.db" "SELECT count(*) FROM deltas")" = "$(sqlite3 "$WORK/a.db" "SELECT count(*) FROM deltas")"
check "--results-only: files marked partial" test "$(sqlite3 "$WORK/ro.db" "SELECT min(partial) FROM files")" = 1
"$COW" merge "$WORK/ro.db" "$WORK/a.db" > "$WORK/m3"
check "a full merge completes the samples" test "$(sqlite3 "$WORK/ro.db" "SELECT count(*) FROM samples")" = "$(sqlite3 "$WORK/a.db" "SELECT count(*) FROM samples")"
check "and clears partial" test "$(sqlite3 "$WORK/ro.db" "SELECT max(partial) FROM files")" = 0
check "and says so" has "completed with their samples" "$WORK/m3"
counts "$WORK/a.db" | grep -v '^files\|^samples' | sort > "$WORK/wa"
counts "$WORK/ro.db" | grep -v '^files\|^samples' | sort > "$WORK/wr"
check "nothing else doubled" cmp -s "$WORK/wa" "$WORK/wr"

# refused inputs: missing, not a database; a failing input rolls back whole
"$COW" merge "$WORK/out.db" "$WORK/nope.db" 2> "$WORK/e1"
check "missing input: exit 2" test $? = 2
check "missing input named" has "nope.db: no such database file" "$WORK/e1"
check "missing input not created" test ! -e "$WORK/nope.db"
echo "not sqlite" > "$WORK/text.db"
"$COW" merge "$WORK/out.db" "$WORK/text.db" 2> "$WORK/e2"
check "not a database: exit 2" test $? = 2
sqlite3 "$WORK/out.db" "UPDATE runs SET host = 'other' WHERE label = 'cache-z/fleet/cache-a/bgsave'"
sqlite3 "$WORK/z.db" "UPDATE runs SET label = 'fleet/cache-e/steady2' WHERE label = 'fleet/cache-e/steady'"
"$COW" merge "$WORK/out.db" "$WORK/z.db" > /dev/null 2> "$WORK/e3"
check "double collision: exit 2" test $? = 2
check "double collision explained" has "collides with two other runs" "$WORK/e3"
check "the failed input left OUT as it was" cmp -s "$WORK/got1" <(counts "$WORK/out.db" | sort)
finish
