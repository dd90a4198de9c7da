#!/usr/bin/env bash
# capture.sh: make the real sample captures under samples/<scenario>/.
#
#   bash samples/capture/capture.sh                 # every scenario
#   bash samples/capture/capture.sh bgsave-t1 steady
#   COW_NICE=-10 bash samples/capture/capture.sh     # as the committed samples were made
#
# Environment: COW_PORT_PRIMARY / COW_PORT_REPLICA (default 7301 / 7302),
# COW_NICE (nice value for the servers and loadgen; default: unchanged).
#
# Needs Debian's redis-server and redis-tools (redis-cli), a C compiler and
# bash >= 5 (EPOCHREALTIME).  Everything runs on loopback: a primary on port
# 7301 and, for the sync scenarios, a replica on 7302, each with its own config
# file and data folder under a temporary directory that is removed at the end.
# The EXIT trap stops every process this script started (by PID) so no server
# is ever left running.
#
# Timeline of every run (seconds from the start of the load):
#   0     loadgen starts (probe every 2 ms + writers), INFO/memory samplers run
#   2     smaps_rollup snapshot "before"
#   3     trigger (BGSAVE, REPLICAOF, BGREWRITEAOF; nothing for steady)
#   3.3   smaps_rollup snapshot "during" (+ the fork child's, if alive)
#   3.8   smaps_rollup snapshot "during" (+ child)
#   12    loadgen stops by itself; the script waits for the background job to
#         finish, takes the "after" snapshot, then the LATENCY/CONFIG dumps.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SAMPLES=$(dirname "$HERE")

PORT_P=${COW_PORT_PRIMARY:-7301}    # primary
PORT_R=${COW_PORT_REPLICA:-7302}    # replica (sync scenarios)
NKEYS=300000                        # dataset: keys key:0..key:299999
VSIZE=400                           # bytes per value (random printable)
SEED=42                             # dataset and key-pick seed
DURATION=12                         # seconds of load per run
TRIGGER_AT=3                        # seconds into the run
INTERVAL_MS=2                       # probe pace
WRITERS=2                           # pipelining writer connections
BATCH=80                            # commands per writer batch (seed 000)
RATE=100000                         # writer ops/s cap (about 1/4 of what 2 writers
                                    # reach unthrottled here: leaves the fork child a core)
INFO_EVERY=0.25                     # INFO series period, seconds
MEM_EVERY=0.15                      # memory series period, seconds
LAYOUT=${COW_LAYOUT:-flat}          # flat: every file in the run's folder;
                                    # subfolders: INFO one file per poll in info/,
                                    # the fork child's smaps in smaps_child/, the
                                    # replica's log and INFO in replica/
NICE=${COW_NICE:-0}                 # nice value for servers and loadgen; a negative
                                    # value keeps other jobs on a shared machine
                                    # out of the probe's tail (needs root)

ALL_SCENARIOS="steady bgsave-t1 bgsave-t2 bgsave-t3 fullsync-disk fullsync-diskless readonly-control aof-rewrite monitor-threshold-0"

die() { echo "capture: $*" >&2; exit 1; }

[[ ${BASH_VERSINFO[0]} -ge 5 ]] || die "bash 5 or later is needed (EPOCHREALTIME)"
command -v redis-server >/dev/null || die "redis-server not found: apt-get install redis-server"
command -v redis-cli >/dev/null || die "redis-cli not found: apt-get install redis-tools"
command -v cc >/dev/null || die "cc not found: apt-get install gcc"

WORK=$(mktemp -d /tmp/cowtail-capture.XXXXXX)
PIDS=()          # every background process started here, stopped by the EXIT trap
SERVER_PORTS=()  # ports of servers started here, shut down first

cleanup() {
    local p pid
    for p in "${SERVER_PORTS[@]}"; do
        redis-cli -p "$p" shutdown nosave >/dev/null 2>&1 || true
    done
    for pid in "${PIDS[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
        fi
    done
    for pid in "${PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ------------------------------------------------------------------ clocks
# EPOCHREALTIME is "seconds.micro"; no fork, no clock mixing.
now_us() { printf -v "$1" '%s' "${EPOCHREALTIME/./}"; }
now_ms() { local u=${EPOCHREALTIME/./}; printf -v "$1" '%s' "$((u / 1000))"; }

# Sleep until an absolute epoch-µs instant (no-op if it has passed).
sleep_until_us() {
    local now d
    now_us now
    d=$(($1 - now))
    if ((d > 0)); then
        sleep "$(printf '%d.%06d' $((d / 1000000)) $((d % 1000000)))"
    fi
}

# --------------------------------------------------------------- servers
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# start_server NAME PORT DIR LOGFILE [extra config lines...]
start_server() {
    local name=$1 port=$2 dir=$3 log=$4
    shift 4
    mkdir -p "$dir"
    {
        echo "# $name, written by samples/capture/capture.sh"
        echo "port $port"
        echo "bind 127.0.0.1"
        echo "protected-mode yes"
        echo "daemonize no"
        echo "dir $dir"
        echo "logfile $log"
        echo "loglevel notice"
        echo "dbfilename dump.rdb"
        echo "save \"\""
        echo "appendonly no"
        local l
        for l in "$@"; do echo "$l"; done
    } >"$dir/redis.conf"
    # an absolute path: INFO executable is cwd + argv[0] otherwise
    nice -n "$NICE" "$(command -v redis-server)" "$dir/redis.conf" &
    local pid=$!
    PIDS+=("$pid")
    SERVER_PORTS+=("$port")
    for _ in $(seq 1 100); do
        if [[ $(redis-cli -p "$port" ping 2>/dev/null) == PONG ]]; then
            printf -v "${name}_PID" '%s' "$pid"
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || die "$name did not start; see $log"
        sleep 0.1
    done
    die "$name did not answer PING on port $port within 10 s"
}

stop_servers() {
    local p
    for p in "${SERVER_PORTS[@]}"; do
        redis-cli -p "$p" shutdown nosave >/dev/null 2>&1 || true
    done
    SERVER_PORTS=()
    local pid
    for pid in "${PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    PIDS=()
}

# ---------------------------------------------------------------- samplers
# Each sampler loops until $STOP exists, so it ends by itself and is waited for.
info_sampler() {   # port file-or-folder: a folder gets one info-<epoch_ms>.txt per poll
    local ts f
    while [[ ! -e $STOP ]]; do
        now_ms ts
        f=$2
        [[ -d $2 ]] && f=$2/info-$ts.txt
        printf '# ts=%s\n' "$ts" >>"$f"
        redis-cli -p "$1" info all >>"$f" 2>/dev/null || true
        sleep "$INFO_EVERY"
    done
}

child_of() {       # pid -> first child pid or ""
    local c=""
    if [[ -r /proc/$1/task/$1/children ]]; then
        read -r c _ <"/proc/$1/task/$1/children" || true
    fi
    printf '%s' "$c"
}

rollup_kb() {      # pid field -> value in kB or 0
    local k v u
    if [[ -r /proc/$1/smaps_rollup ]]; then
        while read -r k v u; do
            if [[ $k == "$2:" ]]; then printf '%s' "$v"; return; fi
        done 2>/dev/null <"/proc/$1/smaps_rollup"
    fi
    printf 0
}

mem_sampler() {    # pid dir
    local ts k v u rss child pss cpss
    echo "timestamp_ms,rss_bytes" >"$2/memory.csv"
    echo "timestamp_ms,pss_bytes" >"$2/memory-pss.csv"
    while [[ ! -e $STOP ]]; do
        now_ms ts
        rss=""
        while read -r k v u; do
            if [[ $k == VmRSS: ]]; then rss=$v; break; fi
        done 2>/dev/null <"/proc/$1/status" || true
        [[ -n $rss ]] && echo "$ts,$((rss * 1024))" >>"$2/memory.csv"
        # Pss of the primary plus its fork child: shared pages are split between
        # the two, so the sum grows by exactly the pages copied on write.
        # The two files cannot be read atomically: if the child appeared or
        # went away between the reads, a shared page would be counted twice
        # (or half), so such a sample is taken again.
        local c2
        for _ in 1 2 3; do
            child=$(child_of "$1")
            cpss=0
            [[ -n $child ]] && cpss=$(rollup_kb "$child" Pss)
            pss=$(rollup_kb "$1" Pss)
            c2=$(child_of "$1")
            [[ $child == "$c2" ]] && break
        done
        [[ $child == "$c2" ]] && echo "$ts,$(((pss + cpss) * 1024))" >>"$2/memory-pss.csv"
        sleep "$MEM_EVERY"
    done
}

snap_smaps() {     # pid dir
    local ts child cdir=$2
    now_ms ts
    cat "/proc/$1/smaps_rollup" >"$2/smaps_rollup-$ts.txt" 2>/dev/null || rm -f "$2/smaps_rollup-$ts.txt"
    child=$(child_of "$1")
    [[ $LAYOUT == subfolders ]] && cdir=$2/smaps_child && mkdir -p "$cdir"
    if [[ -n $child ]]; then
        cat "/proc/$child/smaps_rollup" >"$cdir/smaps_rollup-child-$ts.txt" 2>/dev/null ||
            rm -f "$cdir/smaps_rollup-child-$ts.txt"
    fi
}

# ------------------------------------------------------------ host facts
host_facts() {     # dir
    local f
    for f in enabled defrag; do
        if [[ -r /sys/kernel/mm/transparent_hugepage/$f ]]; then
            cat "/sys/kernel/mm/transparent_hugepage/$f" >"$1/thp-$f.txt"
        fi
    done
    : >"$1/sysctl.txt"
    local name path
    for name in vm.overcommit_memory vm.swappiness kernel.numa_balancing; do
        path=/proc/sys/${name//.//}
        if [[ -r $path ]]; then
            echo "$name = $(<"$path")" >>"$1/sysctl.txt"
        fi
    done
}

# wait until the background job the trigger started is over (at most 120 s)
wait_quiet() {     # kind
    local info
    for _ in $(seq 1 1200); do
        info=$(redis-cli -p "$PORT_P" info persistence 2>/dev/null | tr -d '\r')
        case $1 in
        none) return 0 ;;
        bgsave) [[ $info == *rdb_bgsave_in_progress:0* ]] && return 0 ;;
        aof) [[ $info == *aof_rewrite_in_progress:0* && $info == *aof_rewrite_scheduled:0* ]] && return 0 ;;
        sync)
            if [[ $(redis-cli -p "$PORT_R" info replication 2>/dev/null | tr -d '\r') == *master_link_status:up* &&
                $info == *rdb_bgsave_in_progress:0* ]]; then
                return 0
            fi
            ;;
        esac
        sleep 0.1
    done
    echo "capture: warning: background job ($1) still running after 120 s" >&2
}

json_str() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }

# ---------------------------------------------------------------- one run
# run_scenario LABEL
run_scenario() {
    local label=$1 scenario trial=1 trigger=none wait_kind=none threshold=1
    local readonly_load=0 replica=0 pconf=() note
    case $label in
    steady) scenario=steady; note="no save, no replica: the baseline" ;;
    bgsave-t[0-9]*)
        scenario=bgsave; trial=${label#bgsave-t}; trigger=bgsave; wait_kind=bgsave
        note="BGSAVE under write load" ;;
    monitor-threshold-0)
        scenario=monitor-threshold-0; trigger=bgsave; wait_kind=bgsave; threshold=0
        note="BGSAVE under write load with latency-monitor-threshold 0 (the default): LATENCY stays empty" ;;
    fullsync-disk)
        scenario=fullsync-disk; trigger=replicaof; wait_kind=sync; replica=1
        pconf=("repl-diskless-sync no")
        note="a fresh replica attaches (REPLICAOF) and pulls a disk-based full sync under write load" ;;
    fullsync-diskless)
        scenario=fullsync-diskless; trigger=replicaof; wait_kind=sync; replica=1
        pconf=("repl-diskless-sync yes" "repl-diskless-sync-delay 0")
        note="a fresh replica attaches (REPLICAOF) and pulls a diskless full sync under write load" ;;
    readonly-control)
        scenario=readonly-control; trigger=replicaof; wait_kind=sync; replica=1; readonly_load=1
        pconf=("repl-diskless-sync no")
        note="control: disk-based full sync as in fullsync-disk, but the load only reads (GET), so nothing is copied on write" ;;
    aof-rewrite)
        scenario=aof-rewrite; trigger=bgrewriteaof; wait_kind=aof
        pconf=("appendonly yes" "appendfsync everysec" "auto-aof-rewrite-percentage 0")
        note="appendonly yes (automatic rewrites off); BGREWRITEAOF under write load" ;;
    *) die "unknown scenario '$label' (known: $ALL_SCENARIOS)" ;;
    esac
    # "appendonly no" from the common config is overridden by a later line.
    pconf+=("latency-monitor-threshold $threshold")

    local out=$SAMPLES/$label
    local run=$WORK/$label
    rm -rf "$run"
    mkdir -p "$run/out"
    echo "capture: === $label ===" >&2

    local rdir=$run/out info_out=$run/out/info.txt
    if [[ $LAYOUT == subfolders ]]; then
        rdir=$run/out/replica info_out=$run/out/info
        mkdir -p "$info_out"
    fi
    [[ $LAYOUT == subfolders ]] && ((replica)) && mkdir -p "$rdir/info"
    start_server primary "$PORT_P" "$run/primary" "$run/out/redis.log" "${pconf[@]}"
    if ((replica)); then
        start_server replica "$PORT_R" "$run/replica" "$rdir/replica.log" \
            "latency-monitor-threshold $threshold" "repl-diskless-load disabled"
    fi

    "$WORK/loadgen" --port "$PORT_P" --load --keys "$NKEYS" --value-size "$VSIZE" --seed "$SEED"
    sleep 1

    host_facts "$run/out"
    STOP=$run/stop
    info_sampler "$PORT_P" "$info_out" &
    local info_pid=$! rinfo_pid=""
    PIDS+=("$info_pid")
    if [[ $LAYOUT == subfolders ]] && ((replica)); then
        info_sampler "$PORT_R" "$rdir/info" &
        rinfo_pid=$!
        PIDS+=("$rinfo_pid")
    fi
    # shellcheck disable=SC2154  # primary_PID is set by start_server (printf -v)
    mem_sampler "$primary_PID" "$run/out" &
    local mem_pid=$!
    PIDS+=("$mem_pid")
    sleep 1

    local lg_args=(--port "$PORT_P" --keys "$NKEYS" --value-size "$VSIZE" --seed "$SEED"
        --duration "$DURATION" --interval-ms "$INTERVAL_MS" --writers "$WRITERS" --batch "$BATCH"
        --rate "$RATE" --latency-out "$run/out/latency.csv" --throughput-out "$run/out/throughput.csv")
    local probe_op=SET writer_op=SET
    if ((readonly_load)); then
        probe_op=GET writer_op=GET
        lg_args+=(--read-only --probe-op get)
    else
        lg_args+=(--probe-op set)
    fi
    local t0 trig_ms loadavg
    read -r loadavg <"/proc/loadavg" || loadavg=unknown
    # Other jobs on the same cores show up in the probe's tail, not ours to fix,
    # but the operator should know the capture was taken on a busy machine.
    if [[ $loadavg != unknown ]] && ((${loadavg%%.*} >= $(nproc))); then
        echo "capture: warning: load average ${loadavg%% *} on $(nproc) cores: other jobs will show in the tail" >&2
    fi
    now_us t0
    nice -n "$NICE" "$WORK/loadgen" "${lg_args[@]}" 2>"$run/loadgen.err" &
    local lg_pid=$!
    PIDS+=("$lg_pid")

    sleep_until_us $((t0 + (TRIGGER_AT - 1) * 1000000))
    snap_smaps "$primary_PID" "$run/out"
    sleep_until_us $((t0 + TRIGGER_AT * 1000000))
    now_ms trig_ms
    case $trigger in
    bgsave) redis-cli -p "$PORT_P" bgsave >/dev/null ;;
    bgrewriteaof) redis-cli -p "$PORT_P" bgrewriteaof >/dev/null ;;
    replicaof) redis-cli -p "$PORT_R" replicaof 127.0.0.1 "$PORT_P" >/dev/null ;;
    none) ;;
    esac
    sleep_until_us $((t0 + TRIGGER_AT * 1000000 + 300000))
    snap_smaps "$primary_PID" "$run/out"
    sleep_until_us $((t0 + TRIGGER_AT * 1000000 + 800000))
    snap_smaps "$primary_PID" "$run/out"

    local lg_rc=0
    wait "$lg_pid" || lg_rc=$?
    cat "$run/loadgen.err" >&2
    ((lg_rc == 0)) || die "loadgen failed in $label (exit $lg_rc)"
    wait_quiet "$wait_kind"
    sleep 0.5
    snap_smaps "$primary_PID" "$run/out"
    touch "$STOP"
    wait "$info_pid" "$mem_pid" $rinfo_pid || true

    redis-cli -p "$PORT_P" latency latest >"$run/out/latency-latest.txt"
    redis-cli -p "$PORT_P" latency history fork >"$run/out/latency-history-fork.txt"
    redis-cli -p "$PORT_P" latency doctor >"$run/out/latency-doctor.txt"
    redis-cli -p "$PORT_P" config get '*' >"$run/out/config.txt"
    stop_servers

    local server tz host
    server=$(redis-server --version | sed -n 's/^Redis server v=\([^ ]*\).*/redis \1/p')
    tz=$(date +%:z)
    host=$(hostname)
    {
        printf '{\n'
        printf '  "label": %s,\n' "$(json_str "$label")"
        printf '  "scenario": %s,\n' "$(json_str "$scenario")"
        printf '  "mode": "fork",\n'
        printf '  "host": %s,\n' "$(json_str "$host")"
        printf '  "trial": %d,\n' "$trial"
        printf '  "log_tz": %s,\n' "$(json_str "$tz")"
        printf '  "t0": null,\n'
        printf '  "server": %s,\n' "$(json_str "$server")"
        printf '  "notes": %s\n' "$(json_str "$note. Real capture by samples/capture/capture.sh: $NKEYS keys x $VSIZE bytes (seed $SEED); ${DURATION} s of load: probe $probe_op every ${INTERVAL_MS} ms, $WRITERS writers pipelining $writer_op batches of $BATCH capped at $RATE ops/s; trigger '$trigger' at epoch_ms $trig_ms (${TRIGGER_AT} s into the run); latency-monitor-threshold $threshold; /proc/loadavg at the start of the load: $loadavg; servers and loadgen at nice $NICE.")"
        printf '}\n'
    } >"$run/out/run.json"

    rm -rf "$out"
    mkdir -p "$out"
    cp -R "$run/out/." "$out/"
    rm -rf "$run"
    echo "capture: wrote $out" >&2
}

# ------------------------------------------------------------------- main
scenarios=("$@")
((${#scenarios[@]})) || read -r -a scenarios <<<"$ALL_SCENARIOS"
for s in "${scenarios[@]}"; do
    [[ " $ALL_SCENARIOS " == *" $s "* || $s =~ ^bgsave-t[0-9]+$ ]] || die "unknown scenario '$s' (known: $ALL_SCENARIOS)"
done
port_free "$PORT_P" || die "port $PORT_P is in use; set COW_PORT_PRIMARY to a free port"
port_free "$PORT_R" || die "port $PORT_R is in use; set COW_PORT_REPLICA to a free port"

cc -std=c11 -O2 -Wall -Wextra -pthread -o "$WORK/loadgen" "$HERE/loadgen.c"
for s in "${scenarios[@]}"; do
    run_scenario "$s"
done
