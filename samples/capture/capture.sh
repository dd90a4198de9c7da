#!/usr/bin/env bash
# capture.sh: make real sample captures with `cowtail capture`.
#
#   bash samples/capture/capture.sh OUT                   # every scenario, into OUT/<scenario>/
#   bash samples/capture/capture.sh OUT bgsave-t1 steady  # some of them
#   COW_NICE=-10 bash samples/capture/capture.sh OUT      # servers and capture at nice -10
#
# The script starts the servers (a primary on COW_PORT_PRIMARY, default 7301,
# and for the sync scenarios a replica on COW_PORT_REPLICA, 7302), each with
# its own config file and data folder under a temporary folder, loads the
# data set (loadgen.c --load: 300,000 keys key:0.. of 400 random printable
# bytes, seed 42), and runs `cowtail capture` against the primary: the probe,
# INFO, /proc, LATENCY, CONFIG, the log, the trigger and the load are all the
# binary's. Each scenario goes to OUT/<scenario>/, which must not exist yet
# or be empty (cowtail capture refuses anything else). The EXIT trap stops
# every server it started, by pid, and removes the temporary folder, also on
# Ctrl-C.
#
# Environment: COWTAIL (the binary; default: cowtail on PATH, else
# build/cowtail), COW_PORT_PRIMARY, COW_PORT_REPLICA, COW_NICE.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

PORT_P=${COW_PORT_PRIMARY:-7301}
PORT_R=${COW_PORT_REPLICA:-7302}
NKEYS=300000
VSIZE=400
SEED=42
NICE=${COW_NICE:-0}
ALL_SCENARIOS="steady bgsave-t1 bgsave-t2 bgsave-t3 fullsync-disk fullsync-diskless readonly-control aof-rewrite monitor-threshold-0"

die() { echo "capture: $*" >&2; exit 1; }

(($# >= 1)) || die "usage: bash samples/capture/capture.sh OUT [scenario...] (scenarios: $ALL_SCENARIOS)"
OUT=$1
shift
COW=${COWTAIL:-$(command -v cowtail || echo "$ROOT/build/cowtail")}
[[ -x $COW ]] || die "cowtail not found: build it (make) or set COWTAIL=/path/to/cowtail"
command -v redis-server > /dev/null || die "redis-server not found: apt-get install redis-server"
command -v redis-cli > /dev/null || die "redis-cli not found: apt-get install redis-tools"
command -v cc > /dev/null || die "cc not found: apt-get install gcc"

WORK=$(mktemp -d /tmp/cowtail-capture.XXXXXX)
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2> /dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_free() { ! (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }

# start_server NAME PORT DIR [config lines...]: sets NAME_PID
start_server() {
    local name=$1 port=$2 dir=$3 l pid
    shift 3
    mkdir -p "$dir"
    {
        echo "# $name, written by samples/capture/capture.sh"
        printf '%s\n' "port $port" "bind 127.0.0.1" "protected-mode yes" "daemonize no" \
            "dir $dir" "logfile $dir/$name.log" "loglevel notice" "dbfilename dump.rdb" \
            'save ""' "appendonly no"
        for l in "$@"; do echo "$l"; done
    } > "$dir/redis.conf"
    nice -n "$NICE" "$(command -v redis-server)" "$dir/redis.conf" &
    pid=$!
    PIDS+=("$pid")
    for _ in $(seq 1 100); do
        if [[ $(redis-cli -p "$port" ping 2> /dev/null) == PONG ]]; then
            printf -v "${name}_PID" '%s' "$pid"
            return 0
        fi
        kill -0 "$pid" 2> /dev/null || die "$name did not start; see $dir/$name.log"
        sleep 0.1
    done
    die "$name did not answer PING on port $port within 10 s"
}

stop_servers() {
    local pid
    for pid in "${PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2> /dev/null || true; done
    PIDS=()
}

run_scenario() {
    local label=$1 scenario trigger=none threshold=1 replica=0 pconf=() args=()
    case $label in
    steady) scenario=steady ;;
    bgsave-t[0-9]*) scenario=bgsave; trigger=bgsave ;;
    monitor-threshold-0) scenario=monitor-threshold-0; trigger=bgsave; threshold=0 ;;
    fullsync-disk) scenario=fullsync-disk; replica=1; pconf=("repl-diskless-sync no") ;;
    fullsync-diskless) scenario=fullsync-diskless; replica=1
        pconf=("repl-diskless-sync yes" "repl-diskless-sync-delay 0") ;;
    readonly-control) scenario=readonly-control; replica=1; pconf=("repl-diskless-sync no")
        args=(--probe ping --load-op get) ;;
    aof-rewrite) scenario=aof-rewrite; trigger=bgrewriteaof
        pconf=("appendonly yes" "appendfsync everysec" "auto-aof-rewrite-percentage 0") ;;
    *) die "unknown scenario '$label' (known: $ALL_SCENARIOS)" ;;
    esac
    ((replica)) && trigger=replicaof=127.0.0.1:$PORT_R
    pconf+=("latency-monitor-threshold $threshold")
    echo "capture: === $label ===" >&2
    start_server primary "$PORT_P" "$WORK/$label/primary" "${pconf[@]}"
    ((replica)) && start_server replica "$PORT_R" "$WORK/$label/replica" \
        "latency-monitor-threshold $threshold" "repl-diskless-load disabled"
    "$WORK/loadgen" --port "$PORT_P" --load --keys "$NKEYS" --value-size "$VSIZE" --seed "$SEED"
    ((${#args[@]})) || args=(--probe set)
    if [[ $trigger == none ]]; then
        args+=(--duration 12s)
    else
        args+=(--trigger "$trigger" --at 3s --after 3s --duration 60s)
    fi
    nice -n "$NICE" "$COW" capture --port "$PORT_P" --out "$OUT/$label" --scenario "$scenario" \
        --label "$label" --load 100000 --writers 2 --keys "$NKEYS" --value-size "$VSIZE" \
        --seed "$SEED" "${args[@]}"
    stop_servers
}

scenarios=("$@")
((${#scenarios[@]})) || read -r -a scenarios <<< "$ALL_SCENARIOS"
for s in "${scenarios[@]}"; do
    [[ " $ALL_SCENARIOS " == *" $s "* || $s =~ ^bgsave-t[0-9]+$ ]] || die "unknown scenario '$s' (known: $ALL_SCENARIOS)"
done
port_free "$PORT_P" || die "port $PORT_P is in use; set COW_PORT_PRIMARY to a free port"
port_free "$PORT_R" || die "port $PORT_R is in use; set COW_PORT_REPLICA to a free port"
mkdir -p "$OUT"
cc -std=c11 -O2 -Wall -Wextra -pthread -o "$WORK/loadgen" "$HERE/loadgen.c"
for s in "${scenarios[@]}"; do
    run_scenario "$s"
done
echo "capture: done; next: cowtail report --out $OUT-report $OUT" >&2
