#!/bin/bash
# clickhouse.sh COWTAIL SAMPLES -- the ClickHouse round trip: starts two
# real clickhouse-server processes on 127.0.0.1 (Debian's 18.16, no
# systemd), exports two hosts' databases, one per server, and reads the
# rows back: counts, values, replacement on re-export, and a Distributed
# table over both as two shards. Exit 77 (ctest SKIP) when clickhouse-server
# is not installed: `make deps` installs it.
set -u
COW=$1
SAMPLES=$2
. "$(dirname "$0")/lib.sh"

CH=${CLICKHOUSE_SERVER:-$(command -v clickhouse-server || echo /usr/sbin/clickhouse-server)}
if [ ! -x "$CH" ]; then
    echo "SKIP: clickhouse-server not installed (apt-get install clickhouse-server)"
    exit 77
fi
pids=()
stop_servers() {
    local p
    for p in "${pids[@]}"; do kill -TERM "$p" 2> /dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2> /dev/null; done
    rm -rf "$WORK"
}
trap stop_servers EXIT

in_use() { (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }
# four free ports: two servers x (HTTP, native); ctest may run builds side by side
base=$((20000 + ($$ % 2000) * 10))
while in_use $base || in_use $((base + 1)) || in_use $((base + 2)) || in_use $((base + 3)); do
    base=$((base + 10))
done
H1=$base T1=$((base + 1)) H2=$((base + 2)) T2=$((base + 3))

start_server() { # start_server NAME HTTP_PORT TCP_PORT
    local d=$WORK/$1
    mkdir -p "$d/data" "$d/tmp"
    cat > "$d/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <profiles><default/></profiles>
  <users><default><password/><networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default/></quotas>
</yandex>
XML
    cat > "$d/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><console>1</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$2</http_port>
  <tcp_port>$3</tcp_port>
  <path>$d/data/</path>
  <tmp_path>$d/tmp/</tmp_path>
  <users_config>$d/users.xml</users_config>
  <mark_cache_size>5368709120</mark_cache_size>
  <remote_servers>
    <two_shards>
      <shard><replica><host>127.0.0.1</host><port>$T1</port></replica></shard>
      <shard><replica><host>127.0.0.1</host><port>$T2</port></replica></shard>
    </two_shards>
  </remote_servers>
</yandex>
XML
    "$CH" --config-file="$d/config.xml" > "$d/log" 2>&1 &
    pids+=($!)
}
q() { # q HTTP_PORT SQL -> TSV
    curl -sS --max-time 20 --fail-with-body "http://127.0.0.1:$1/?database=cowtail" --data-binary "$2"
}
wait_up() { # up to 30 s: a loaded machine starts it slowly
    local i
    for i in $(seq 300); do
        curl -s "http://127.0.0.1:$1/?query=SELECT%201" 2> /dev/null | grep -q '^1$' && return 0
        sleep 0.1
    done
    return 1
}
start_server one "$H1" "$T1"
start_server two "$H2" "$T2"
check "server one answers" wait_up "$H1"
check "server two answers" wait_up "$H2"
if [ "$fails" != 0 ]; then tail -n 20 "$WORK"/one/log "$WORK"/two/log >&2; finish; exit; fi

# server two holds the runs table of an older cowtail, upgraded with the
# ALTER schemas/clickhouse.sql gives
curl -sS --max-time 20 "http://127.0.0.1:$H2/" --data-binary "CREATE DATABASE cowtail" > /dev/null
q "$H2" "CREATE TABLE runs (host String, run String, export_version UInt64,
    scenario Nullable(String), mode Nullable(String), trial Nullable(Int64),
    path Nullable(String), files Int64, samples Int64,
    t_first_us Nullable(Int64), t_last_us Nullable(Int64),
    seed Nullable(Int64), resamples Nullable(Int64), method Nullable(String)
) ENGINE = MergeTree() ORDER BY (host, run)" > /dev/null
q "$H2" "$(sed -n 's/^--     \(ALTER TABLE cowtail.runs.*\)/\1/p; s/^--  *\(ADD COLUMN uid.*\)/\1/p' \
  "$(dirname "$SAMPLES")/schemas/clickhouse.sql")" > /dev/null
A=$WORK/a.db B=$WORK/b.db
"$COW" ingest -q --db "$A" "$SAMPLES/fleet/cache-a" "$SAMPLES/fleet/cache-b" > /dev/null
"$COW" doctor --db "$A" > /dev/null
"$COW" check --db "$A" --thresholds "$SAMPLES/fleet/thresholds.json" > /dev/null
"$COW" ingest -q --db "$B" "$SAMPLES/fleet/cache-c" "$SAMPLES/fleet/cache-d" > /dev/null
"$COW" doctor --db "$B" > /dev/null
"$COW" export --db "$A" --clickhouse "http://127.0.0.1:$H1" --samples > "$WORK/x1" 2>&1
check "export to server one exits 0" test $? = 0
"$COW" export --db "$B" --clickhouse "http://127.0.0.1:$H2/" --samples > "$WORK/x2" 2>&1
check "export to server two exits 0" test $? = 0

sq() { sqlite3 "$1" "$2"; }
check "servers: the full sync's primary and replica back from server two" test \
  "$(q "$H2" "SELECT seq, role, pid, port, files > 0 FROM servers WHERE run = 'fleet/cache-c/fullsync' ORDER BY seq FORMAT TSV")" = \
  "$(printf '1\tprimary\t6014\t7301\t1\n2\treplica\t6026\t7302\t1')"
for pair in runs:runs servers:servers phases:phases quantiles:quantiles deltas:deltas \
            exceedance:exceed findings:findings checks:checks samples:samples; do
    f=${pair%%:*} t=${pair##*:}
    check "$f: every row back from server one" test "$(q "$H1" "SELECT count() FROM $f")" = "$(sq "$A" "SELECT count(*) FROM $t")"
done
check "samples per run, as stored" test \
  "$(q "$H1" "SELECT run, count() FROM samples GROUP BY run ORDER BY run FORMAT TSV")" = \
  "$(sq "$A" "SELECT r.label, count(*) FROM samples s JOIN runs r ON r.id = s.run GROUP BY r.label ORDER BY r.label" | tr '|' '\t')"
check "sample latencies, as stored" test \
  "$(q "$H1" "SELECT round(sum(lat_us), 3), min(t_us), max(t_us) FROM samples FORMAT TSV")" = \
  "$(sq "$A" "SELECT printf('%.3f', sum(lat_us)), min(t_us), max(t_us) FROM samples" | tr '|' '\t' | sed 's/\.\?0*\t/\t/')"
want=$(sq "$A" "SELECT printf('%.6f', d.delta_us) FROM deltas d JOIN runs r ON r.id = d.run
  JOIN phases p ON p.run = d.run AND p.idx = d.phase
  WHERE r.label = 'fleet/cache-a/bgsave' AND p.kind = 'bgsave' AND d.q = 0.999")
got=$(q "$H1" "SELECT delta_us FROM deltas WHERE run = 'fleet/cache-a/bgsave' AND phase_kind = 'bgsave' AND q = 0.999" | xargs printf '%.6f')
check "p99.9 delta as stored ($want)" test -n "$want" -a "$got" = "$want"
check "deltas carry their decision rule and n_eff" test \
  "$(q "$H1" "SELECT count(), round(sum(n_eff_base), 3) FROM deltas WHERE method = 'bootstrap' FORMAT TSV")" = \
  "$(sq "$A" "SELECT count(*), printf('%.3f', sum(n_eff_base)) FROM deltas WHERE method = 'bootstrap'" | tr '|' '\t' | sed 's/\.\?0*$//')"
check "findings text intact" test \
  "$(q "$H1" "SELECT title FROM findings ORDER BY run, seq LIMIT 1")" = \
  "$(sq "$A" "SELECT f.title FROM findings f JOIN runs r ON r.id = f.run ORDER BY r.label, f.seq LIMIT 1")"
check "findings evidence (JSON text, quotes and all) byte for byte" test \
  "$(q "$H1" "SELECT sum(length(evidence)), sum(length(recommendation)) FROM findings FORMAT TSV")" = \
  "$(sq "$A" "SELECT sum(length(CAST(evidence AS BLOB))), sum(length(CAST(recommendation AS BLOB))) FROM findings" | tr '|' '\t')"
check "checks: cache-a's 5 limits judged on its 2 runs" test "$(sq "$A" "SELECT count(*), sum(runs) FROM checks WHERE scope = 'host' AND host = 'cache-a'")" = '5|10'
check "checks: verdicts per scope, as stored" test \
  "$(q "$H1" "SELECT scope, count(), countIf(verdict = 'fail'), sum(runs) FROM checks GROUP BY scope ORDER BY scope FORMAT TSV")" = \
  "$(sq "$A" "SELECT scope, count(*), sum(verdict = 'fail'), sum(runs) FROM checks GROUP BY scope ORDER BY scope" | tr '|' '\t')"
check "checks: cache-a judged once as a host, run ''" test \
  "$(q "$H1" "SELECT host, run, limit_name, round(value, 6), comparisons FROM checks WHERE scope = 'host' AND limit_name = 'max_p99_ms' FORMAT TSV")" = \
  "$(sq "$A" "SELECT host, '', limit_name, printf('%.6f', value), comparisons FROM checks WHERE scope = 'host' AND limit_name = 'max_p99_ms'" | tr '|' '\t' | sed 's/0*\t\([0-9]*\)$/\t\1/')"
check "an older runs table gained ingested_on and uid" test \
  "$(q "$H2" "SELECT count() FROM runs WHERE ingested_on != '' AND uid != ''")" = "$(sq "$B" "SELECT count(*) FROM runs")"
check "hosts are the run key" test "$(q "$H2" "SELECT DISTINCT host FROM runs ORDER BY host FORMAT TSV" | tr '\n' ' ')" = "cache-c cache-d "

# re-export replaces: one version left, no row twice
"$COW" export -q --db "$A" --clickhouse "http://127.0.0.1:$H1" --samples > /dev/null
for i in $(seq 50); do
    [ "$(q "$H1" "SELECT count() FROM system.mutations WHERE database = 'cowtail' AND is_done = 0")" = 0 ] && break
    sleep 0.1
done
check "re-export: samples not doubled" test "$(q "$H1" "SELECT count() FROM samples")" = "$(sq "$A" "SELECT count(*) FROM samples")"
check "re-export: deltas not doubled" test "$(q "$H1" "SELECT count() FROM deltas")" = "$(sq "$A" "SELECT count(*) FROM deltas")"
check "re-export: checks not doubled, hosts' rows too" test "$(q "$H1" "SELECT count() FROM checks")" = "$(sq "$A" "SELECT count(*) FROM checks")"
check "re-export: one version left" test "$(q "$H1" "SELECT uniqExact(export_version) FROM deltas")" = 1

# a label of 1,200 bytes and a host of 700 (quotes and backslashes in
# them): the DELETE of older versions names the key whole, so three
# exports leave one version (the key was cut at 1,096 / 596 bytes)
L=$WORK/longlabel
mkdir -p "$L"
cp "$SAMPLES/steady/latency.csv" "$L/"
longlabel="l'\\$(head -c 1200 < /dev/zero | tr '\0' 'l')"
longhost="h'$(head -c 700 < /dev/zero | tr '\0' 'h')"
printf '{"label": "%s", "host": "%s"}\n' "${longlabel//\\/\\\\}" "$longhost" > "$L/run.json"
"$COW" ingest -q --db "$WORK/long.db" "$L" > "$WORK/long.out" 2>&1
check "long label ingested" test "$(sq "$WORK/long.db" "SELECT length(label), length(host) FROM runs")" = "1203|702"
for i in 1 2 3; do "$COW" export -q --db "$WORK/long.db" --clickhouse "http://127.0.0.1:$H2" > /dev/null 2>&1; done
for i in $(seq 50); do
    [ "$(q "$H2" "SELECT count() FROM system.mutations WHERE database = 'cowtail' AND is_done = 0")" = 0 ] && break
    sleep 0.1
done
check "long label exported three times: one row" test "$(q "$H2" "SELECT count() FROM runs WHERE length(run) = 1203")" = 1

# an export that fails half-way (here the samples table refuses its rows,
# as a server killed during --samples would): it says what it sent and
# what not, and leaves no mark, so the query reads the version before
check "before: one marked version of cache-c" test "$(q "$H2" "SELECT uniqExact(export_version) FROM exports WHERE host = 'cache-c'")" = 1
q "$H2" "DROP TABLE samples" > /dev/null
q "$H2" "CREATE TABLE samples (x String) ENGINE = Memory" > /dev/null
"$COW" export --db "$B" --clickhouse "http://127.0.0.1:$H2" --samples > "$WORK/xfail" 2>&1
check "failed export: exit 3" test $? = 3
check "... says what was sent and what not, and to run it again" has \
    "export version [0-9]* sent runs, run_facts, servers, server_facts, phases, quantiles, deltas, exceedance, findings, checks, windows, answers, repl_syncs, inputs, not samples, exports; without its mark in table exports the version is incomplete and the README's query reads the one before it: run the export again" "$WORK/xfail"
check "... its runs rows are there, a second version" test "$(q "$H2" "SELECT uniqExact(export_version) FROM runs WHERE host = 'cache-c'")" = 2
check "... but not marked: the newest marked version is the complete one" test \
  "$(q "$H2" "SELECT count(), sum(samples) FROM runs WHERE host = 'cache-c' AND (host, run, export_version) IN (SELECT host, run, max(export_version) FROM exports GROUP BY host, run) FORMAT TSV")" = \
  "$(sq "$B" "SELECT count(*), sum((SELECT count(*) FROM samples s WHERE s.run = r.id)) FROM runs r WHERE host = 'cache-c'" | tr '|' '\t')"
q "$H2" "DROP TABLE samples" > /dev/null
"$COW" export -q --db "$B" --clickhouse "http://127.0.0.1:$H2" --samples > /dev/null 2>&1
check "export again: exit 0" test $? = 0
for i in $(seq 50); do
    [ "$(q "$H2" "SELECT count() FROM system.mutations WHERE database = 'cowtail' AND is_done = 0")" = 0 ] && break
    sleep 0.1
done
check "... one version left, marked" test "$(q "$H2" "SELECT uniqExact(export_version) FROM runs WHERE host = 'cache-c'") $(q "$H2" "SELECT uniqExact(export_version) FROM exports WHERE host = 'cache-c'")" = "1 1"
check "... the mark names the tables sent" test "$(q "$H2" "SELECT DISTINCT tables FROM exports WHERE host = 'cache-c'")" = "runs,run_facts,servers,server_facts,phases,quantiles,deltas,exceedance,findings,checks,windows,answers,repl_syncs,inputs,samples"

# a Distributed table over the two servers as shards, and the README's fleet query
q "$H1" "CREATE TABLE deltas_all AS deltas ENGINE = Distributed(two_shards, cowtail, deltas)" > /dev/null
q "$H1" "CREATE TABLE exports_all AS exports ENGINE = Distributed(two_shards, cowtail, exports)" > /dev/null
check "Distributed: both shards' rows" test "$(q "$H1" "SELECT count() FROM deltas_all")" = \
  "$(( $(sq "$A" "SELECT count(*) FROM deltas") + $(sq "$B" "SELECT count(*) FROM deltas") ))"
q "$H1" "SELECT host, count() AS windows, countIf(verdict = 'lift') AS lifted,
    round(max(ratio), 2) AS worst_ratio
  FROM deltas_all
  WHERE q = 0.999 AND phase_kind != 'baseline'
    AND (host, run, export_version) GLOBAL IN
        (SELECT host, run, max(export_version) FROM exports_all GROUP BY host, run)
  GROUP BY host ORDER BY host FORMAT TSV" > "$WORK/fleet" 2>&1
check "fleet query: one line per host over both shards" test "$(cut -f1 "$WORK/fleet" | tr '\n' ' ')" = "cache-a cache-b cache-c cache-d "
local_fleet() { # the same figures from one SQLite database
    sq "$1" "SELECT r.host, count(*), sum(d.verdict = 'lift'), printf('%g', round(max(d.ratio), 2))
      FROM deltas d JOIN runs r ON r.id = d.run JOIN phases p ON p.run = d.run AND p.idx = d.phase
      WHERE d.q = 0.999 AND p.kind != 'baseline' GROUP BY r.host ORDER BY r.host" | tr '|' '\t'
}
check "fleet query: the figures SQLite gives per host" test "$(cat "$WORK/fleet")" = "$(local_fleet "$A"; local_fleet "$B")"
# what the README says of quantileExact: sorted[floor(q*N)], not type 7
check "quantileExact(0.999) of 1..1000 is the largest (type 7: 999.001)" test \
  "$(q "$H1" "SELECT quantileExact(0.999)(number + 1) FROM numbers(1000)")" = 1000

# ---- the README's fleet questions, on run_facts, as written there ----
README=$(dirname "$SAMPLES")/README.md
PIN="toDateTime('2026-12-01 00:00:00', 'UTC')"  # now(), pinned to the samples' week
fleet_sql() { # fleet_sql NAME -> the README's query NAME, now() pinned, no ';'
    awk -v m="<!-- fleet query: $1 -->" '$0 == m {on = 1; next}
        on && /^```sql/ {inq = 1; next} inq && /^```/ {exit} inq {print}' "$README" |
        sed -e "s/now()/$PIN/" -e 's/;[[:space:]]*$//'
}
distributed() { # the same query over the Distributed tables (two shards)
    sed -e 's/cowtail\.\(deltas\|runs\|run_facts\)\b/cowtail.\1_all/g' \
        -e 's/^ANY LEFT JOIN/GLOBAL ANY LEFT JOIN/' -e 's/) IN$/) GLOBAL IN/'
}
for n in lift fork cow gate sync; do
    check "README gives fleet query '$n'" test -n "$(fleet_sql $n)"
done
# a gate some runs fail (p99 over 3 ms), judged on every database; a third
# database: a Valkey host with another kernel, captured in September
echo '{"max_p99_ms": 3, "min_samples": 1000}' > "$WORK/gate.json"
C=$WORK/c.db
"$COW" ingest -q --db "$C" "$SAMPLES/forkless/fork-t1" "$SAMPLES/forkless/forkless-t1" > /dev/null
# and files refused before their run existed (a label with no runs row)
"$COW" ingest -q --db "$C" "$SAMPLES/not-loaded" > /dev/null 2>&1
"$COW" doctor --db "$C" > /dev/null
for db in "$A" "$B" "$C"; do
    "$COW" check --db "$db" --thresholds "$WORK/gate.json" > /dev/null 2>&1
done
check "the gate fails some runs, passes others" test \
  "$(sq "$A" "SELECT sum(verdict = 'fail') > 0 AND sum(verdict = 'pass') > 0 FROM checks WHERE scope = 'run'")" = 1
mutations_done() { # mutations_done HTTP_PORT: up to 5 s
    local i
    for i in $(seq 50); do
        [ "$(q "$1" "SELECT count() FROM system.mutations WHERE database = 'cowtail' AND is_done = 0")" = 0 ] && return 0
        sleep 0.1
    done
    return 1
}
# A on server one; B and C on server two
"$COW" export -q --db "$A" --clickhouse "http://127.0.0.1:$H1" > /dev/null
"$COW" export -q --db "$B" --clickhouse "http://127.0.0.1:$H2" > /dev/null
"$COW" export -q --db "$C" --clickhouse "http://127.0.0.1:$H2" > /dev/null
check "re-exports settled on server one" mutations_done "$H1"
check "re-exports settled on server two" mutations_done "$H2"
check "run_facts: every row back from server one" test \
  "$(q "$H1" "SELECT count() FROM run_facts")" = "$(sq "$A" "SELECT count(*) FROM run_facts")"
check "run_facts: typed columns, as stored" test \
  "$(q "$H2" "SELECT host, run, server_kind, server_version, kernel_release, thp_enabled, used_memory, latest_fork_usec, persistence FROM run_facts WHERE run = 'forkless/fork-t1' FORMAT TSV")" = \
  "$(sq "$C" "SELECT r.host, r.label, f.server_kind, f.server_version, f.kernel_release, f.thp_enabled, f.used_memory, f.latest_fork_usec, f.persistence FROM run_facts f JOIN runs r ON r.id = f.run WHERE r.label = 'forkless/fork-t1'" | tr '|' '\t')"
check "run_facts: a fact's source is its file and line" test \
  "$(q "$H1" "SELECT used_memory_src FROM run_facts WHERE run = 'fleet/cache-a/bgsave'")" = \
  "$(sq "$A" "SELECT f.used_memory_src FROM run_facts f JOIN runs r ON r.id = f.run WHERE r.label = 'fleet/cache-a/bgsave'")"
check "run_facts: an unknown fact is NULL" test \
  "$(q "$H1" "SELECT countIf(isNull(role)) FROM run_facts")" = "$(sq "$A" "SELECT count(*) - count(role) FROM run_facts")"

# 1. lift by kernel and THP mode, over both shards (Distributed tables)
q "$H1" "CREATE TABLE runs_all AS runs ENGINE = Distributed(two_shards, cowtail, runs)" > /dev/null
q "$H1" "CREATE TABLE run_facts_all AS run_facts ENGINE = Distributed(two_shards, cowtail, run_facts)" > /dev/null
q "$H1" "$(fleet_sql lift | distributed)" > "$WORK/lift_dist" 2>&1
check "lift over two shards answers" test $? = 0
# the same figures from SQLite: save windows of runs of the 7 days before the pin
lift_sqlite() {
    sq "$1" "SELECT r.host, f.kernel_release, f.thp_enabled, count(*), sum(d.verdict = 'lift'),
        printf('%g', round(max(d.delta_us) / 1000, 3))
      FROM deltas d JOIN runs r ON r.id = d.run JOIN phases p ON p.run = d.run AND p.idx = d.phase
      LEFT JOIN run_facts f ON f.run = r.id
      WHERE d.q = 0.999 AND p.kind NOT IN ('baseline', 'between', 'after') AND r.host IS NOT NULL
        AND (SELECT min(t_us) FROM samples s WHERE s.run = r.id) >= (1796083200 - 7 * 86400) * 1000000
      GROUP BY r.host, f.kernel_release, f.thp_enabled" | tr '|' '\t'
}
check "lift: SQLite's figures per host, kernel and THP mode" test \
  "$(sort "$WORK/lift_dist")" = "$(lift_sqlite "$A"; lift_sqlite "$B"; lift_sqlite "$C" | sort)"
check "lift: the four fleet hosts, not September's Valkey host" test \
  "$(cut -f1 "$WORK/lift_dist" | sort | tr '\n' ' ')" = "cache-a cache-b cache-c cache-d "
# cache-c's diskless sync: the quiet phase after it lies nearer the
# baseline than the sync (the sync's aftermath, runstats.c Requirement 7d),
# so its p99.9 is judged against the baseline before it: a lift
check "lift: cache-c's diskless sync a lift (its after phase is aftermath), worst first is cache-a" test \
  "$(awk -F'\t' '$1 == "cache-c" {print $5} NR == 1 {print $1}' "$WORK/lift_dist" | tr '\n' ' ')" = "cache-a 1 "
# the whole fleet in one server: B and C on server one too
"$COW" export -q --db "$B" --clickhouse "http://127.0.0.1:$H1" > /dev/null
"$COW" export -q --db "$C" --clickhouse "http://127.0.0.1:$H1" > /dev/null
check "fleet on server one settled" mutations_done "$H1"
"$COW" export -q --db "$C" --clickhouse "http://127.0.0.1:$H1" > /dev/null
check "C again on server one settled" mutations_done "$H1"
check "inputs: a refused run's label, re-exported, holds one version" test \
  "$(q "$H1" "SELECT count(), uniqExact(export_version) FROM inputs WHERE run = 'not-loaded' FORMAT TSV")" = \
  "$(printf '2\t1')"
q "$H1" "$(fleet_sql lift)" > "$WORK/lift_one" 2>&1
check "lift: one server answers as the two shards did" test "$(cat "$WORK/lift_one")" = "$(cat "$WORK/lift_dist")"

# 2. hosts whose fork takes longer than 100 ms per GiB
q "$H1" "$(fleet_sql fork)" > "$WORK/fork" 2>&1
check "fork: cache-a only (32.757 ms for 151 MiB)" test "$(cat "$WORK/fork")" = "$(printf 'cache-a\t32.757\t221.5')"
all() { # all SQL: over A, B and C attached (run_facts and runs as f, r)
    sqlite3 "$A" "ATTACH '$B' AS b; ATTACH '$C' AS c; $1"
}
RF="(SELECT r.host, f.* FROM main.run_facts f JOIN main.runs r ON r.id = f.run
     UNION ALL SELECT r.host, f.* FROM b.run_facts f JOIN b.runs r ON r.id = f.run
     UNION ALL SELECT r.host, f.* FROM c.run_facts f JOIN c.runs r ON r.id = f.run)"
check "fork: SQLite finds the same hosts over 100 ms/GiB" test \
  "$(all "SELECT group_concat(host, ' ') FROM (SELECT DISTINCT host FROM $RF
          WHERE latest_fork_usec > 0 AND used_memory > 0
            AND latest_fork_usec / 1000.0 / (used_memory / 1073741824.0) > 100 ORDER BY host)")" = cache-a

# 3. copy-on-write as a share of used_memory, by server version
q "$H1" "$(fleet_sql cow)" > "$WORK/cow" 2>&1
check "cow: one line per server version" test "$(cut -f1,2,3 "$WORK/cow" | tr '\n' ' ')" = \
  "$(printf 'redis\t7.0.15\t4 valkey\t9.2.0\t1 ')"
check "cow: the shares SQLite gives" test "$(cat "$WORK/cow")" = \
  "$(all "SELECT server_kind, server_version, count(*),
          printf('%g', round(avg(1.0 * cow_bytes / used_memory), 3)),
          printf('%g', round(max(1.0 * cow_bytes / used_memory), 3)) FROM $RF
        WHERE persistence = 'fork' AND cow_bytes > 0 AND used_memory > 0
        GROUP BY server_kind, server_version ORDER BY server_kind, server_version" | tr '|' '\t')"

# 4. runs failing the gate, with the facts they share
q "$H1" "$(fleet_sql gate)" > "$WORK/gate" 2>&1
fails_sqlite=$(all "SELECT count(*) FROM (SELECT DISTINCT r.host, r.label FROM main.checks x JOIN main.runs r ON r.id = x.run WHERE x.verdict = 'fail'
  UNION SELECT DISTINCT r.host, r.label FROM b.checks x JOIN b.runs r ON r.id = x.run WHERE x.verdict = 'fail'
  UNION SELECT DISTINCT r.host, r.label FROM c.checks x JOIN c.runs r ON r.id = x.run WHERE x.verdict = 'fail')")
check "gate: every failing run counted once ($fails_sqlite)" test \
  "$(awk -F'\t' '{s += $7} END {print s}' "$WORK/gate")" = "$fails_sqlite"
check "gate: the fleet's failing runs share redis 7.0.15 on 6.18.44-fc-v857 with THP madvise" has \
  "^7.0.15	6.18.44-fc-v857	madvise	0	yes	no	3	\['cache-a','cache-c','cache-d'\]	\['max_p99_ms'\]$" "$WORK/gate"

# 5. replica syncs per host, transfer and the replica's own version (server_facts)
q "$H1" "$(fleet_sql sync)" > "$WORK/sync" 2>&1
check "sync: cache-c's diskless full sync, its replica's version from its own log" test \
  "$(cat "$WORK/sync")" = "$(printf 'cache-c\tyes\tredis 7.0.15\t1\t3.477\t2.681')"
check "sync: SQLite's figures (B holds the fleet's only replica)" test "$(cat "$WORK/sync")" = \
  "$(sq "$B" "SELECT r.host, f.repl_diskless_sync, v.server_kind || ' ' || v.server_version, count(*),
          printf('%g', round(max(y.attach_to_up_s), 3)), printf('%g', round(max(y.transfer_s), 3))
        FROM repl_syncs y JOIN runs r ON r.id = y.run JOIN run_facts f ON f.run = r.id
        JOIN server_facts v ON v.run = y.run AND v.server = y.server
        WHERE y.mode = 'full' AND y.outcome = 'up' AND r.host IS NOT NULL
        GROUP BY r.host, f.repl_diskless_sync, v.server_kind, v.server_version" | tr '|' '\t')"
check "sync: no replica in A or C" test "$(sq "$A" "SELECT count(*) FROM repl_syncs")$(sq "$C" "SELECT count(*) FROM repl_syncs")" = 00

t0=$(date +%s%N)
stop_servers
pids=()
check "servers stop on SIGTERM within 10 s" test $(( ($(date +%s%N) - t0) / 1000000000 )) -lt 10
finish
