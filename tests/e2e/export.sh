#!/bin/bash
# export.sh COWTAIL SAMPLES -- end-to-end: cowtail export --jsonl writes
# every exported row once, with the run key and one export version, values
# as the database holds them; bad targets are refused clearly.
set -u
COW=$1
SAMPLES=$2
. "$(dirname "$0")/lib.sh"

# ingest -> check -> export, no doctor or report: ingest stored the
# facts of every run when its files landed, check's triage reads that row
# (a value changed in it shows), the export sends it; the doctor refreshes it
F=$WORK/f.db
"$COW" ingest -q --db "$F" "$SAMPLES/fleet" > /dev/null 2>&1
nruns=$(sqlite3 "$F" "SELECT count(*) FROM runs")
check "ingest stores run_facts: one row per run ($nruns)" test \
  "$(sqlite3 "$F" "SELECT count(*) FROM run_facts")" = "$nruns" -a "$nruns" -ge 5
check "ingest's facts: cache-c's kernel and fork with their sources" test \
  "$(sqlite3 "$F" "SELECT kernel_release, latest_fork_usec > 0, latest_fork_usec_src LIKE '%info%'
     FROM run_facts x JOIN runs r ON r.id = x.run WHERE r.label = 'fleet/cache-c/fullsync'")" = "6.18.44-fc-v857|1|1"
echo '{"max_p99_ms": 3}' > "$WORK/p99.json"
sqlite3 "$F" "UPDATE run_facts SET kernel_release = '6.99.0-stored'
  WHERE run IN (SELECT id FROM runs WHERE host = 'cache-c')"
"$COW" check --db "$F" --thresholds "$WORK/p99.json" > "$WORK/tri1"
check "check's triage reads the stored facts" has '^  kernel release .*6\.99\.0-stored 1/0' "$WORK/tri1"
"$COW" check --db "$F" --thresholds "$WORK/p99.json" --json > "$WORK/tri1.json"
check "check --json's triage too" has '6\.99\.0-stored' "$WORK/tri1.json"
"$COW" export --db "$F" --jsonl "$WORK/fx" > /dev/null
check "export after ingest and check: run_facts rows" test "$(wc -l < "$WORK/fx/run_facts.jsonl")" = "$nruns"
check "export sends the stored row" has '"run":"fleet/cache-c/fullsync",.*"kernel_release":"6.99.0-stored"' "$WORK/fx/run_facts.jsonl"
nwin=$(sqlite3 "$F" "SELECT count(*) FROM windows")
check "export after ingest and check: the windows check judged ($nwin)" test \
  "$(wc -l < "$WORK/fx/windows.jsonl")" = "$nwin" -a "$nwin" -gt 3
check "windows.jsonl: cache-c's diskless sync" has \
  '^{"host":"cache-c","run":"fleet/cache-c/fullsync","export_version":[0-9]*,"idx":[0-9]*,"kind":"sync-diskless",' "$WORK/fx/windows.jsonl"
"$COW" doctor --db "$F" > /dev/null
check "windows: the phases analyze stores, one for one" test \
  "$(sqlite3 "$F" "SELECT count(*) FROM windows w JOIN phases p ON p.run = w.run AND p.idx = w.idx
     AND p.kind = w.kind AND p.label = w.label AND p.t0_us = w.t0_us AND p.t1_us = w.t1_us")" = "$nwin"
check "windows: every window phase" test \
  "$(sqlite3 "$F" "SELECT count(*) FROM phases WHERE kind NOT IN ('baseline', 'between', 'after')")" = "$nwin"
check "the doctor refreshes the facts" test \
  "$(sqlite3 "$F" "SELECT count(*) FROM run_facts WHERE kernel_release = '6.18.44-fc-v857'")" = "$nruns"
sqlite3 "$F" "DELETE FROM run_facts"
"$COW" check --db "$F" --thresholds "$WORK/p99.json" > "$WORK/tri2"
check "a run without stored facts: triage makes them" has '^  kernel release .*6\.18\.44-fc-v857 4/3' "$WORK/tri2"

DB=$WORK/a.db
"$COW" ingest -q --db "$DB" "$SAMPLES/fleet/cache-a" "$SAMPLES/fleet/cache-c" > /dev/null
"$COW" doctor --db "$DB" > /dev/null
"$COW" check --db "$DB" --thresholds "$SAMPLES/fleet/thresholds.json" > /dev/null
check "check stores its verdicts: (3 runs + host cache-a) x 5 limits" test "$(sqlite3 "$DB" "SELECT count(*) FROM checks")" = 20
"$COW" export --db "$DB" --jsonl "$WORK/out" --samples > "$WORK/x1"
check "export exits 0" test $? = 0
for pair in runs:runs run_facts:run_facts servers:servers phases:phases quantiles:quantiles deltas:deltas \
            exceedance:exceed findings:findings checks:checks samples:samples; do
    f=${pair%%:*} t=${pair##*:}
    n=$(sqlite3 "$DB" "SELECT count(*) FROM $t")
    check "$f.jsonl: $n rows" test "$(wc -l < "$WORK/out/$f.jsonl")" = "$n"
    check "$f: the count is printed" has "^$f *$n rows" "$WORK/x1"
done
check "some rows at all" test "$(wc -l < "$WORK/out/deltas.jsonl")" -gt 3
check "one export version in every file" test \
  "$(cat "$WORK"/out/*.jsonl | sed 's/.*"export_version":\([0-9]*\).*/\1/' | sort -u | wc -l)" = 1
check "rows carry the run key" has '^{"host":"cache-c","run":"fleet/cache-c/fullsync","export_version":' "$WORK/out/phases.jsonl"
# a value exactly as stored: the p99.9 delta of cache-a's bgsave
want=$(sqlite3 "$DB" "SELECT printf('%.6f', d.delta_us) FROM deltas d JOIN runs r ON r.id = d.run
  JOIN phases p ON p.run = d.run AND p.idx = d.phase
  WHERE r.label = 'fleet/cache-a/bgsave' AND p.kind = 'bgsave' AND d.q = 0.999")
got=$(grep '"run":"fleet/cache-a/bgsave"' "$WORK/out/deltas.jsonl" | grep '"phase_kind":"bgsave"' |
  grep '"q":0.999,' | sed 's/.*"delta_us":\([^,]*\),.*/\1/' | xargs printf '%.6f')
check "p99.9 delta as stored ($want)" test -n "$want" -a "$got" = "$want"
check "servers: the full sync's replica, as stored" has '^{"host":"cache-c","run":"fleet/cache-c/fullsync","export_version":[0-9]*,"seq":2,"role":"replica","pid":6026,"port":7302,"version":"7.0.15","run_id":null,"how":"log pid 6026","files":1}$' "$WORK/out/servers.jsonl"
check "servers: one primary per run" test "$(grep -c '"role":"primary"' "$WORK/out/servers.jsonl")" = 3
# checks: a run's verdict as stored, and cache-a judged once as a host (run '')
check "checks: cache-c's p99 as stored" has '^{"host":"cache-c","run":"fleet/cache-c/fullsync","export_version":[0-9]*,"scope":"run","limit_name":"max_p99_ms","limit_value":10,"value":5.14[0-9]*,"p":0.99999[0-9]*,"p_adjusted":1,"verdict":"pass","method":"binomial","correction":"holm","comparisons":5,' "$WORK/out/checks.jsonl"
check "checks: the host row has no run" has '^{"host":"cache-a","run":"","export_version":[0-9]*,"scope":"host","limit_name":"min_samples","limit_value":1000,"value":11189,"p":null,"p_adjusted":null,"verdict":"pass","method":null,"correction":"holm","comparisons":2,"detail":"2 runs'"'"' samples","runs":2,"evaluated_at":[0-9]*}$' "$WORK/out/checks.jsonl"
check "no NaN or Infinity in JSON" test "$(cat "$WORK"/out/*.jsonl | grep -c -E ':-?(nan|inf|NaN|Inf)')" = 0
check "no temporary file left" test -z "$(ls "$WORK/out" | grep tmp)"

# run_facts: the columns named once (store_runfacts.c): SQLite's table,
# ClickHouse's DDL, the JSON lines' keys and runs --json's facts agree, in
# order and type
DDL=$(dirname "$SAMPLES")/schemas/clickhouse.sql
sqlite_cols_of() { # TABLE: its columns but the run key, "name ClickHouse-type", as in the DDL
    sqlite3 "$DB" "SELECT name || ' ' || type FROM pragma_table_info('$1') WHERE name NOT IN ('run', 'server')" |
      sed 's/ TEXT$/ Nullable(String)/; s/ INTEGER$/ Nullable(Int64)/; s/^stored_at .*/stored_at Int64/'
}
ch_cols_of() { # TABLE: the DDL's columns but the run key
    sed -n "/^CREATE TABLE IF NOT EXISTS $1 /,/^) ENGINE/p" "$DDL" | sed 's/--.*//' |
      tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -E '^[a-z_]+ [A-Za-z0-9()]+$' |
      grep -v -E '^(host|run|export_version|server) '
}
sqlite_cols=$(sqlite_cols_of run_facts)
ch_cols=$(ch_cols_of run_facts)
check "run_facts: SQLite's columns are ClickHouse's, in order and type" test "$sqlite_cols" = "$ch_cols"
check "run_facts: 18 facts, each with its source" test "$(echo "$ch_cols" | grep -c '_src ')" = 18
jsonl_keys=$(head -1 "$WORK/out/run_facts.jsonl" | grep -o '"[a-z_]*":' | tr -d '":' | grep -v -E '^(host|run|export_version)$')
check "run_facts.jsonl: the same fields" test "$jsonl_keys" = "$(echo "$ch_cols" | cut -d' ' -f1)"
"$COW" runs --db "$DB" --json > "$WORK/runs.json"
runs_keys=$(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))[0]["facts"]))' "$WORK/runs.json")
check "runs --json: the same facts, in order" test "$runs_keys" = \
  "$(echo "$ch_cols" | cut -d' ' -f1 | grep -v -E '_src$|^stored_at$')"
check "run_facts: cache-a's bgsave as the doctor read it" has \
  '^{"host":"cache-a","run":"fleet/cache-a/bgsave",.*"server_kind":"redis","server_kind_src":"[^"]*info.txt:[0-9]*",.*"thp_enabled":"madvise",.*"vm_overcommit_memory":0,"vm_overcommit_memory_src":"[^"]*sysctl.txt:1",.*"persistence":"fork",' \
  "$WORK/out/run_facts.jsonl"

# server_facts: a server's own facts, the same descriptor: SQLite's table,
# the DDL, the JSON lines' keys and runs --json's servers[].facts agree
sqlite_scols=$(sqlite_cols_of server_facts)
ch_scols=$(ch_cols_of server_facts)
check "server_facts: SQLite's columns are ClickHouse's, in order and type" test "$sqlite_scols" = "$ch_scols"
check "server_facts: run_facts' columns, fewer" test "$(echo "$ch_scols" | grep -c '_src ')" -ge 10 -a \
  "$(echo "$ch_cols" | grep -c -x -F "$ch_scols")" = "$(echo "$ch_scols" | wc -l)"
skeys=$(head -1 "$WORK/out/server_facts.jsonl" | grep -o '"[a-z_]*":' | tr -d '":' | grep -v -E '^(host|run|export_version|server)$')
check "server_facts.jsonl: the same fields" test "$skeys" = "$(echo "$ch_scols" | cut -d' ' -f1)"
check "server_facts: one row per server" test "$(wc -l < "$WORK/out/server_facts.jsonl")" = "$(sqlite3 "$DB" "SELECT count(*) FROM servers")"
srv_keys=$(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))[0]["servers"][0]["facts"]))' "$WORK/runs.json")
check "runs --json servers[].facts: the same facts, in order" test "$srv_keys" = \
  "$(echo "$ch_scols" | cut -d' ' -f1 | grep -v -E '_src$|^stored_at$')"
# a replica known by its INFO too: its own facts, apart from the primary's
R=$WORK/repcap
cp -r "$SAMPLES/fleet/cache-c/fullsync" "$R"
sed -i 's|"label": "fleet/cache-c/fullsync"|"label": "rep"|' "$R/run.json"
printf '%s\n' '# ts=1796027898000' '# Server' 'redis_version:7.0.15' 'process_id:6026' 'tcp_port:7302' \
  '# Memory' 'used_memory:161000000' '# Persistence' 'latest_fork_usec:0' '# Replication' 'role:slave' \
  '# Keyspace' 'db0:keys=299990,expires=0,avg_ttl=0' > "$R/replica-info.txt"
"$COW" ingest -q --db "$WORK/r.db" "$R" > /dev/null 2>&1
check "server_facts: the replica's from its INFO" test \
  "$(sqlite3 "$WORK/r.db" "SELECT server, role, used_memory, keys, latest_fork_usec, used_memory_src LIKE '%replica-info.txt:7'
     FROM server_facts ORDER BY server")" = "1|master|159926536|300000|6900|0
2|slave|161000000|299990|0|1"
check "run_facts: the primary's" test \
  "$(sqlite3 "$WORK/r.db" "SELECT role, used_memory FROM run_facts")" = "master|159926536"
check "server_facts: a replica known by its log alone has its banner's version" test \
  "$(sqlite3 "$DB" "SELECT server_kind, server_version, server_version_src LIKE '%replica.log:%', used_memory IS NULL
     FROM server_facts x JOIN runs r ON r.id = x.run WHERE r.label = 'fleet/cache-c/fullsync' AND x.server = 2")" = "redis|7.0.15|1|1"
"$COW" export --db "$WORK/r.db" --jsonl "$WORK/rout" > /dev/null
check "server_facts.jsonl: the replica's row" has '^{"host":"cache-c","run":"rep","export_version":[0-9]*,"server":2,"server_kind":"redis",.*"role":"slave",.*"used_memory":161000000,' "$WORK/rout/server_facts.jsonl"

# every table the DDL declares has rows after exporting the bundled
# samples, made with report --thresholds (no check: the report's verdicts
# fill the checks table)
S=$WORK/s.db
"$COW" ingest -q --db "$S" "$SAMPLES" > /dev/null 2>&1
"$COW" report --db "$S" --out "$WORK/rep" --thresholds "$SAMPLES/fleet/thresholds.json" > /dev/null 2>&1
check "report --thresholds keeps its verdicts in checks" test "$(sqlite3 "$S" "SELECT count(*) > 0 FROM checks")" = 1
"$COW" export --db "$S" --jsonl "$WORK/all" --samples > /dev/null
tables=$(sed -n 's/^CREATE TABLE IF NOT EXISTS \([a-z_]*\).*/\1/p' "$DDL")
check "the DDL declares tables" test "$(echo "$tables" | wc -l)" -ge 10
for t in $tables; do
    check "$t: rows after exporting the samples" test -s "$WORK/all/$t.jsonl"
done
# what the report decided, as it decided it: a run's answer is the line
# doctor prints; the full sync's replica steps; the files that did not land
"$COW" doctor --db "$S" > "$WORK/doc.txt" 2>&1
line=$(sqlite3 "$S" "SELECT x.line FROM answers x JOIN runs r ON r.id = x.run WHERE r.label = 'bgsave-t2'")
check "answers: one per run" test "$(wc -l < "$WORK/all/answers.jsonl")" = "$(sqlite3 "$S" "SELECT count(*) FROM runs")"
check "answers: bgsave-t2's line is doctor's" grep -q -F -- "$line" "$WORK/doc.txt"
check "answers.jsonl: bgsave-t2's verdict, window and gate" has \
  '^{"host":"vm","run":"bgsave-t2",.*"window_label":"bgsave#1","kind":"bgsave",.*"verdict":"lift","method":"[a-z-]*",.*"gate":"pass",' "$WORK/all/answers.jsonl"
check "answers: a quiet run says why" test "$(sqlite3 "$S" "SELECT count(*) FROM answers WHERE say = 0 AND quiet IN ('flat', 'unsure', 'no-window', 'no-samples')")" = \
  "$(sqlite3 "$S" "SELECT count(*) FROM answers WHERE say = 0")"
check "repl_syncs.jsonl: cache-c's replica synced up, full, step by step" has \
  '^{"host":"cache-c","run":"fleet/cache-c/fullsync","export_version":[0-9]*,"server":2,"attempt":1,"pid":6026,"port":7302,"attach_line":10,"mode":"full","outcome":"up",.*"transfer_s":2.681,' "$WORK/all/repl_syncs.jsonl"
check "inputs.jsonl: the file no parser recognised, and why" has \
  '"run":"not-loaded",.*"path":"[^"]*operator-notes.md","kind":"unrecognised","code":"unrecognised","reason":"no parser recognises it' "$WORK/all/inputs.jsonl"
check "inputs.jsonl: the refused file, with its line" has \
  '"path":"[^"]*probe-no-unit.csv","kind":"refused","code":"unit",.*"line":1,' "$WORK/all/inputs.jsonl"

"$COW" export --db "$DB" --jsonl "$WORK/out" > /dev/null
v1=$(sed -n '1s/.*"export_version":\([0-9]*\).*/\1/p' "$WORK/out/samples.jsonl")
v2=$(sed -n '1s/.*"export_version":\([0-9]*\).*/\1/p' "$WORK/out/runs.jsonl")
check "a new export: a later version" test "$v2" -gt "$v1"
check "without --samples: samples.jsonl left as it was" test \
  "$(wc -l < "$WORK/out/samples.jsonl")" = "$(sqlite3 "$DB" "SELECT count(*) FROM samples")"
"$COW" export --db "$DB" > /dev/null 2> "$WORK/e1"
check "no target: exit 2" test $? = 2
"$COW" export --db "$DB" --clickhouse ftp://x 2> "$WORK/e2"
check "not an HTTP URL: exit 2" test $? = 2
check "says what a URL looks like" has "http://127.0.0.1:8123" "$WORK/e2"
"$COW" export --db "$WORK/none.db" --jsonl "$WORK/o2" 2> "$WORK/e3"
check "missing database: exit 2" test $? = 2
"$COW" export --db "$DB" --clickhouse http://127.0.0.1:1 2> "$WORK/e4"
check "unreachable server: exit 3" test $? = 3
check "unreachable server named" has "clickhouse http://127.0.0.1:1: " "$WORK/e4"
finish
