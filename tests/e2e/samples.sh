#!/bin/bash
# samples.sh COWTAIL SAMPLES -- end-to-end on the committed samples/: exact
# ingest counts, and the numbers the seeds quote, computed from raw files.
set -u
COW=$1
SAMPLES=$2
. "$(dirname "$0")/lib.sh"

DB=$WORK/s.db
"$COW" ingest -q --db "$DB" "$SAMPLES" > "$WORK/ingest" 2> "$WORK/ingest.err"
check "ingest exits 1 (not-loaded/ holds a refused file)" test $? = 1
check "every capture file lands, none rejected; not-loaded/'s two files accounted for" has \
  "ingested 604 files into 30 runs: 358548 records, 0 rejected lines; 1 refused, 0 already ingested, 1 not recognised" "$WORK/ingest"
check "ingest names the refused file, why and what to do" has \
  "^  not-loaded: .*probe-no-unit.csv line 1: refused, nothing of it loaded: latency column 'latency' has no unit.*Do: " "$WORK/ingest"
check "and the unrecognised one" has "^  not-loaded: .*operator-notes.md: not recognised, not read" "$WORK/ingest"
"$COW" runs --db "$DB" --json > "$WORK/runs"
check "steady: 5788 samples" test "$(json_field "$WORK/runs" steady samples)" = 5788
check "steady: 17 files" test "$(json_field "$WORK/runs" steady files)" = 17
tr -d '\n\t ' < "$WORK/runs" | sed 's/{"label":/\n&/g' | grep '"label":"fullsync-disk"' > "$WORK/fd"
check "fullsync-disk: 32 log events (its backlog created among them)" test "$(sed 's/.*"events":{\([^}]*\)}.*/\1/' "$WORK/fd" | tr ',' '\n' | cut -d: -f2 | paste -sd+ | bc)" = 32
check "events by kind" has '"sync_bgsave_start":1,' "$WORK/fd"
check "fullsync-disk: 51 INFO dumps (info/)" has '"info_dumps":51,' "$WORK/fd"
check "fullsync-disk: 6 smaps snapshots (4 + 2 in smaps_child/)" has '"smaps_snapshots":6,' "$WORK/fd"
check "the log's zone given" has '"clock":\[{"file":"[^"]*fullsync-disk/redis.log","decided":"given","offset_s":0' "$WORK/fd"

# verdict.c Requirement 3: bgsave-t1's p99.9 tail test reads pooled p99.16,
# whose inverted bound passes the estimate: the bound is the shift (it
# rose), not the estimate again ("+1.719 (>= +1.719)" before)
"$COW" analyze --db "$DB" bgsave-t1 > "$WORK/t1.txt"
# runstats.h Requirement 7b: phases whose intervals the baseline's
# movement widened are marked, and the mark is explained
"$COW" analyze --db "$DB" aof-rewrite > "$WORK/aofw.txt"
check "aof-rewrite: widened intervals marked" has "^  baseline \* " "$WORK/aofw.txt"
check "aof-rewrite: the mark explained" has "^  \* intervals widened by the baseline's own movement" "$WORK/aofw.txt"
check "bgsave-t1: p99.9 lift bound below the estimate" has "p99.9  *+1.719 (\(> 0\|>= +0\.[0-9]*\)) .* lift" "$WORK/t1.txt"
check "bgsave-t1: no bound equal to its estimate" test "$(grep -c '+1.719 (>= +1.719)' "$WORK/t1.txt")" = 0
check "bgsave-t1: the threshold named is the one counted beyond (the printed baseline p99)" has "beyond baseline p99:   0.892 ms: 102 of 886" "$WORK/t1.txt"

# the thresholds file's materiality margin: 0 takes the tail test's ~ away
printf '{"margin_rel": 0, "margin_ms": 0}' > "$WORK/m0.json"
printf '{"margin_rel": -1}' > "$WORK/mbad.json"
"$COW" analyze --db "$DB" > "$WORK/m.def"
"$COW" analyze --db "$DB" --thresholds "$WORK/m0.json" > "$WORK/m.0"
check "margin: the defaults give ~ by the tail test" test "$(grep -c '~ .*tail-test' "$WORK/m.def")" -ge 1
check "margin 0 from the thresholds file: no ~ by the tail test" test "$(grep -c '~ .*tail-test' "$WORK/m.0")" = 0
"$COW" analyze --db "$DB" --thresholds "$WORK/mbad.json" > /dev/null 2> "$WORK/m.err"
check "a negative margin is refused, naming the file and the key" has 'mbad.json:[0-9]*: "margin_rel" must be a non-negative number' "$WORK/m.err"

# check.c Requirement 6: a lift limit on a run whose baseline moved around
# the window by more than the limit is judged against both sides, and says so
printf '{"max_p99_lift_ms": 0.2}' > "$WORK/lim.json"
"$COW" check --db "$WORK/ck.db" --thresholds "$WORK/lim.json" "$SAMPLES/aof-rewrite" > "$WORK/ck.out" 2>&1
check "check: aof-rewrite's p99 limit judged against the baseline on both sides" has \
  "^aof-rewrite  *max_p99_lift_ms  *pass .*unstable baseline: p99 0.977 ms before the window, 3.812 ms after it (+290%), judged against the baseline on both sides" "$WORK/ck.out"

"$COW" analyze --db "$DB" --json fullsync-disk > "$WORK/a.json"
tr -d '\n\t ' < "$WORK/a.json" > "$WORK/a.flat"
check "disk full sync window from the log" has '"label":"sync-disk#1","kind":"fullsync_disk","t0_us":[0-9]*,"t1_us":[0-9]*,"source":"log"' "$WORK/a.flat"
# the sync ends at the replica's link-up ("MASTER <-> REPLICA sync:
# Finished with success", phase.c Requirement 11), its load inside the
# window; the baseline's median moved +600% after it: against the
# baseline on both sides, the tail test cannot tell, ?
check "p99.9 of the disk sync: ? against the baseline on both sides" has '"phase":"sync-disk#1","baseline":"baseline","quantile":"p999","base_us":[0-9.]*,"value_us":[0-9.]*,"delta_us":972.3[0-9]*,"ci_low_us":null,"ci_high_us":null,"ratio":[0-9.]*,"ratio_low":null,"ratio_high":null,"verdict":"unsure","thin":true,"method":"tail-test","n_base":3006,"n":907,.*"both_sides":true,"why":"thetailtest:3vs2samplesbeyondthepooledp99.87,as[0-9.]*vs[0-9.]*independentones(clustersof[0-9.]*),p=1;theblocktestneeds10000baselinesamples(20blocksof500),has3006"' "$WORK/a.flat"
check "the window says its baseline moved" has '"label":"sync-disk#1",[^}]*"unstable_baseline":"p500.022msbeforethewindow,0.153msafterit' "$WORK/a.flat"
check "phase objects carry the documented keys" has '"phase":"during","label":"sync-disk#1","kind":"fullsync_disk","t0_us":[0-9]*,"t1_us":[0-9]*' "$WORK/a.flat"

# The replica's own steps (replica/replica.log, pid 1678): Connecting to
# MASTER 08:51:15.645, Full resync 15.651, receiving 124089071 bytes 16.908,
# Flushing old data / Loading DB 17.084, Finished with success 17.526; the
# link lost at 25.683 and a reconnect that never syncs.
check "disk sync: attach-to-link-up 1.881 s from the replica's log" has '"replica_syncs":\[{"server":2,"pid":1678,"port":7302,"attempt":1,"resync":"full","outcome":"up","steps":{"attach":"2026-11-30T08:51:15.645Z","resync":"2026-11-30T08:51:15.651Z","transfer_start":"2026-11-30T08:51:16.908Z","transfer_end":"2026-11-30T08:51:17.084Z","flush":"2026-11-30T08:51:17.084Z","load":"2026-11-30T08:51:17.084Z","link_up":"2026-11-30T08:51:17.526Z","link_lost":null},"attach_line":10,"bytes":124089071,"attach_to_link_up_s":1.881,"wait_s":1.257,"transfer_s":0.176,"flush_s":0,"load_s":0.442}' "$WORK/a.flat"
check "disk sync: the reconnect after the link was lost did not finish" has '"attempt":2,"resync":null,"outcome":"open","steps":{"attach":"2026-11-30T08:51:25.683Z","resync":null,' "$WORK/a.flat"
"$COW" analyze --db "$DB" --json fullsync-diskless > "$WORK/al.json"
tr -d '\n\t ' < "$WORK/al.json" > "$WORK/al.flat"
# replica.log, pid 2203: 32.062 connect and full resync, 32.080 receiving
# streamed RDB (no size said), 34.269 flush and load, 34.794 done
check "diskless sync: attach-to-link-up 2.732 s, transfer 2.189 s" has '"server":2,"pid":2203,"port":7302,"attempt":1,"resync":"full","outcome":"up","steps":{"attach":"2026-11-30T08:51:32.062Z","resync":"2026-11-30T08:51:32.062Z","transfer_start":"2026-11-30T08:51:32.080Z","transfer_end":"2026-11-30T08:51:34.269Z","flush":"2026-11-30T08:51:34.269Z","load":"2026-11-30T08:51:34.269Z","link_up":"2026-11-30T08:51:34.794Z","link_lost":null},"attach_line":10,"bytes":null,"attach_to_link_up_s":2.732,"wait_s":0.018,"transfer_s":2.189,"flush_s":0,"load_s":0.525}' "$WORK/al.flat"
"$COW" analyze --db "$DB" fullsync-diskless > "$WORK/al.txt"
check "text: a replica sync section" has '^  replica sync (replica pid 2203, port 7302; from its own log):$' "$WORK/al.txt"
check "text: the attempt's durations" has '^    #1      full    up             2.732 s   0.018 s   2.189 s   0.000 s   0.525 s$' "$WORK/al.txt"
"$COW" analyze --db "$DB" --json steady > "$WORK/as.json"
check "no replica: an empty replica_syncs" has '"replica_syncs":[[:space:]]*\[\]' "$WORK/as.json"

# seed 003's table, from the synthetic forkless batch
"$COW" tradeoff --db "$DB" --json > "$WORK/t.json"
tr -d '\n\t ' < "$WORK/t.json" > "$WORK/t.flat"
check "fork COW mean 354.7 MB over 7 trials" has '"mode":"fork","trials":7,"cow_mb":{"n":7,"mean":354.7' "$WORK/t.flat"
check "fork COW range 319.6-367.5 MB" has '"min":319.60[0-9]*,"max":367.5' "$WORK/t.flat"
check "forkless COW 0" has '"mode":"forkless","trials":7,"cow_mb":{"n":7,"mean":0,' "$WORK/t.flat"
check "save 3.031 s vs 5.579 s" has '"save_s":{"n":7,"mean":3.031' "$WORK/t.flat"
check "forkless save 5.579 s" has '"save_s":{"n":7,"mean":5.579' "$WORK/t.flat"
check "throughput 27202 vs 23034" has '"throughput_ops_s":{"n":7,"mean":27202' "$WORK/t.flat"
check "forkless throughput 23034" has '"throughput_ops_s":{"n":7,"mean":23034' "$WORK/t.flat"
check "memory growth 9.88 MB forkless" has '"mem_growth_mb":{"n":7,"mean":9.87' "$WORK/t.flat"
check "memory growth 354.4 MB fork" has '"mem_growth_mb":{"n":7,"mean":354.38' "$WORK/t.flat"

"$COW" doctor --db "$DB" --json > "$WORK/d.json"
tr -d '\n\t ' < "$WORK/d.json" | sed 's/},{"rule"/}\n{"rule"/g' > "$WORK/d.lines"
check "threshold 0: the monitor's blind spot" has '"rule":"monitor_blind_spot","severity":"warning","run":"monitor-threshold-0"' "$WORK/d.lines"
check "threshold 0: its fork rows cite the empty HISTORY reply, not the DOCTOR text" \
    has '"rule":"monitor_blind_spot","severity":"warning","run":"monitor-threshold-0".*"metric":"LATENCYHISTORYforkrows","value":"0","source":"[^"]*monitor-threshold-0/latency-history-fork.txt:1"' "$WORK/d.lines"
check "threshold 0: no 'no spike observed' where DOCTOR said monitoring is disabled" \
    not_has '"rule":"monitor_blind_spot","severity":"warning","run":"monitor-threshold-0".*DOCTOR.nospikeobserved' "$WORK/d.lines"
check "forkless with AOF still forks" has '"rule":"aof_rewrite_still_forks","severity":"warning","run":"forkless/forkless-t7"' "$WORK/d.lines"
check "THP madvise, AnonHugePages 0" has '"rule":"thp_not_backing_heap","severity":"info","run":"fullsync-disk"' "$WORK/d.lines"
check "disk vs diskless compared" has '"rule":"disk_vs_diskless_sync","severity":"[a-z]*","run":"fullsync-disk"' "$WORK/d.lines"
check "disk vs diskless cites both replicas' attach-to-link-up" has '"rule":"disk_vs_diskless_sync","severity":"[a-z]*","run":"fullsync-disk".*"metric":"attach-to-link-updisk","value":"1.881s,wait1.257s,transfer0.176s,flush0.000s,load0.442s","source":"thereplica.slog(pid1678,port7302),line10"},{"metric":"attach-to-link-updiskless","value":"2.732s,wait0.018s,transfer2.189s,flush0.000s,load0.525s"' "$WORK/d.lines"

"$COW" check --db "$DB" --thresholds "$SAMPLES/fleet/thresholds.json" > "$WORK/c" 2>&1
check "fleet gate passes after Holm (exit 0)" test $? = 0
check "cache-e: p99.9 +59.6 ms on a 20 ms limit rests on 11 stalls: Holm-adjusted p 1" has "^fleet/cache-e/bgsave .*max_p999_lift_ms .*pass .*59.59[0-9] .*; raw p 0.0[0-9]*, Holm-adjusted p 1$" "$WORK/c"
check "the correction is named with its comparisons" has "^Holm (family-wise error) over 57 comparisons" "$WORK/c"
"$COW" check --db "$DB" --thresholds "$SAMPLES/fleet/thresholds.json" --fdr --json > "$WORK/cj" 2>&1
tr -d '\n\t ' < "$WORK/cj" > "$WORK/cj.flat"
check "--fdr: BH, raw and adjusted p in JSON" has '"check":"max_p99_ms","result":"pass","value":[0-9.]*,"limit":10,"detail":"[^"]*","method":"binomial","n":[0-9]*,"n_eff":[0-9.]*,"p":[0-9.e-]*,"p_adjusted":[0-9.e-]*,"correction":"bh","comparisons":57' "$WORK/cj.flat"
echo '{"max_p999_lift_ms": 20}' > "$WORK/strict.json"
"$COW" check --db "$DB" --thresholds "$WORK/strict.json" > "$WORK/cs" 2>&1
check "fail closed: no save window, exit 1" test $? = 1
check "fail closed: steady cannot be judged" has "^steady .*max_p999_lift_ms .*FAIL .*no window with samples: cannot judge max_p999_lift_ms" "$WORK/cs"

# fleet triage: a fork limit the Valkey 9.2 runs (synthetic, samples/forkless) and
# cache-a's save breach; what they share comes first
echo '{"max_fork_ms": 15}' > "$WORK/fork.json"
"$COW" check --db "$DB" --thresholds "$WORK/fork.json" > "$WORK/ct" 2>&1
check "fork limit: 7 runs fail (exit 1)" test $? = 1
cat > "$WORK/ct.want" <<'EOF'
triage: what the 7 failing runs share that the 23 passing do not (runs per value, failing/passing; attributes by separation: the largest share of a value among failing runs minus its share among passing runs)
  server version         +0.51  valkey 9.2.0 6/8, redis 7.0.15 1/15
  kernel release         +0.51  6.8.0-84-generic 6/8, 6.18.44-fc-v857 1/15
  vm.overcommit_memory   +0.51  1 6/8, 0 1/15
  repl-diskless-sync     +0.51  unknown 6/8, no 0/2, yes 1/13
  dataset (used_memory)  +0.51  1-2 GiB 6/8, 128-256 MiB 1/15
  keys (largest db)      +0.51  1M-10M 6/8, 100k-1M 1/15
  host                   +0.51  lab-docker-1 6/8, cache-a 1/1, cache-b 0/1, cache-c 0/1, cache-d 0/1, cache-e 0/2, 1 more value 0/9
  THP mode               +0.00  madvise 7/23
  THP backs the heap     +0.00  no 7/23
30 runs checked: 23 pass, 7 fail; 4 hosts judged on pooled runs: 2 pass, 2 fail
EOF
sed -n '/^triage:/,$p' "$WORK/ct" > "$WORK/ct.got"
check "triage lines exactly" diff -u "$WORK/ct.want" "$WORK/ct.got"
check "a host is judged once on its pooled runs" has "^lab-docker-1 (14 runs) *max_fork_ms *FAIL *27.382  limit 15; worst run forkless/fork-t6$" "$WORK/ct"
check "hosts are a family of their own" has "^Holm (family-wise error) over 0 comparisons (hosts x latency limits), a family of its own" "$WORK/ct"
"$COW" check --db "$DB" --thresholds "$WORK/fork.json" --json > "$WORK/ctj" 2>&1
tr -d '\n\t ' < "$WORK/ctj" > "$WORK/ctj.flat"
check "JSON: the summary keys" has '^{"correction":"holm","comparisons":0,"failing":7,"passing":23,"runs":\[{"run":' "$WORK/ctj.flat"
check "JSON: hosts with their runs" has '"hosts":\[{"host":"vm","runs":\["aof-rewrite",' "$WORK/ctj.flat"
check "JSON: cache-a fails as a host" has '{"host":"cache-a","runs":\["fleet/cache-a/bgsave","fleet/cache-a/steady"\],"result":"fail","checks":\[{"check":"max_fork_ms","result":"fail","value":32.757' "$WORK/ctj.flat"
check "JSON: the triage array, ranked" has '"triage":\[{"attribute":"server_version","name":"serverversion","separation":0.50931[0-9]*,"values":\[{"value":"valkey9.2.0","failing":6,"passing":8,"separation":0.5093' "$WORK/ctj.flat"
check "JSON: every attribute" test "$(grep -o '"attribute":"[a-z_]*"' "$WORK/ctj.flat" | sort | tr '\n' ' ')" = '"attribute":"dataset_size" "attribute":"host" "attribute":"kernel_release" "attribute":"keys" "attribute":"repl_diskless_sync" "attribute":"server_version" "attribute":"thp_backs_heap" "attribute":"thp_mode" "attribute":"vm_overcommit_memory" '
check "checks table: one row per run and host" test "$(sqlite3 "$DB" "SELECT scope, count(*), sum(verdict = 'fail') FROM checks GROUP BY scope ORDER BY scope" | tr '\n' ' ')" = "host|4|2 run|30|7 "

finish
