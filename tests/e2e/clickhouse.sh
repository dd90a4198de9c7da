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
    "export version [0-9]* sent runs, servers, phases, quantiles, deltas, exceedance, findings, checks, not samples, exports; without its mark in table exports the version is incomplete and the README's query reads the one before it: run the export again" "$WORK/xfail"
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
check "... the mark names the tables sent" test "$(q "$H2" "SELECT DISTINCT tables FROM exports WHERE host = 'cache-c'")" = "runs,servers,phases,quantiles,deltas,exceedance,findings,checks,samples"

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
t0=$(date +%s%N)
stop_servers
pids=()
check "servers stop on SIGTERM within 10 s" test $(( ($(date +%s%N) - t0) / 1000000000 )) -lt 10
finish
