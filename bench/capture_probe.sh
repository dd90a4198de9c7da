#!/bin/bash
# capture_probe.sh COWTAIL [SECONDS] -- the probe of `cowtail capture`
# against redis-cli --latency on the same idle server at the same time, and
# the capture's CPU use at 500 samples/s.
#
# Starts Debian's redis-server on a free loopback port (stopped by pid at
# the end), then for SECONDS (default 30) runs at once:
#   cowtail capture --duration SECONDS     PING every 2 ms, INFO, /proc
#   redis-cli --latency -i SECONDS          PING, sleep 10 ms, PING, ...
# and, right after, redis-benchmark -c 1 -t ping_mbulk (closed loop, one
# connection) as a reference with microsecond quantiles. redis-cli times
# PING with mstime(): every sample is whole milliseconds, so only its
# average (of 0s and 1s: the share of round trips that crossed a
# millisecond boundary, an unbiased estimate of the mean) can be set
# against the probe's; its min and max are 0 or 1 ms.
set -u
COW=$1
SECS=${2:-30}
command -v redis-server > /dev/null || { echo "redis-server not installed"; exit 1; }
W=$(mktemp -d)
PID=
trap '[ -n "$PID" ] && kill "$PID" 2> /dev/null; wait 2> /dev/null; rm -rf "$W"' EXIT
for _ in $(seq 1 100); do
    PORT=$((20000 + RANDOM % 20000))
    (exec 3<> "/dev/tcp/127.0.0.1/$PORT") 2> /dev/null || break
done
printf 'port %s\nbind 127.0.0.1\ndaemonize no\ndir %s\nlogfile %s/redis.log\nsave ""\n' \
    "$PORT" "$W" "$W" > "$W/redis.conf"
redis-server "$W/redis.conf" &
PID=$!
for _ in $(seq 1 50); do [ "$(redis-cli -p "$PORT" ping 2> /dev/null)" = PONG ] && break; sleep 0.1; done

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
# piped, redis-cli --latency -i N samples for N seconds and prints one line
redis-cli -p "$PORT" --latency -i "$SECS" > "$W/cli.txt" 2>&1 &
CLI=$!
"$COW" capture --port "$PORT" --out "$W/cap" --duration "${SECS}s" -q > "$W/cap.out" 2>&1
wait "$CLI"
redis-benchmark -p "$PORT" -c 1 -n 20000 -t ping_mbulk > "$W/bench.txt" 2>&1
# the same regime as redis-benchmark's: back to back (a 10 us schedule is
# always late, so each PING goes as the last reply lands), then the
# benchmark again
"$COW" capture --port "$PORT" --out "$W/b2b" --duration 5s --rate 10us --no-proc \
    --info-every 1s -q > /dev/null 2>&1
redis-benchmark -p "$PORT" -c 1 -n 100000 -t ping_mbulk > "$W/bench2.txt" 2>&1

# the probe's quantiles (type 7 would need interpolation: nearest rank here)
awk -F, 'NR > 1 { print $2 }' "$W/cap/latency.csv" | sort -n > "$W/lat"
q() { awk -v q="$1" '{ a[NR] = $1 } END { i = int(q * NR + 0.999999); if (i < 1) i = 1; print a[i] }' "$W/lat"; }
mean=$(awk '{ s += $1 } END { printf "%.1f", s / NR }' "$W/lat")
n=$(wc -l < "$W/lat")
read -r cmin cmax cavg ccount < <(tail -1 "$W/cli.txt")
echo
echo "cowtail capture probe, PING every 2 ms, $n samples (us):"
echo "  min $(q 0) median $(q 0.5) p99 $(q 0.99) p99.9 $(q 0.999) max $(q 1) mean $mean"
echo "redis-cli --latency at the same time, $ccount samples (ms, whole-ms samples):"
echo "  min $cmin max $cmax avg $cavg  (avg x 1000 = $(awk -v a="$cavg" 'BEGIN { printf "%.0f", a * 1000 }') us vs the probe's mean $mean us)"
echo "redis-benchmark -c 1 -t ping_mbulk right after (closed loop; ms):"
grep -A2 "latency summary" "$W/bench.txt" | tail -1 | awk '{ printf "  avg %s min %s p50 %s p95 %s p99 %s max %s\n", $1, $2, $3, $4, $5, $6 }'
awk -F, 'NR > 1 { print $2 }' "$W/b2b/latency.csv" | sort -n > "$W/lat"
echo "back to back: cowtail capture --rate 10us, $(wc -l < "$W/lat") samples (us):"
echo "  min $(q 0) median $(q 0.5) p99 $(q 0.99) max $(q 1)"
echo "back to back: redis-benchmark -c 1 -n 100000 -t ping_mbulk right after (ms):"
grep -A2 "latency summary" "$W/bench2.txt" | tail -1 | awk '{ printf "  avg %s min %s p50 %s p95 %s p99 %s max %s\n", $1, $2, $3, $4, $5, $6 }'
echo "capture's own cost at 500/s (run.json):"
tr -d '\n\t ' < "$W/cap/run.json" | grep -o '"cpu_pct_of_core":[0-9.]*' |
    sed -e '1s/^/  whole capture (probe, INFO, \/proc, main): /' -e '2s/^/  probe thread: /' |
    sed 's/"cpu_pct_of_core"://; s/$/ % of a core/'
tr -d '\n\t ' < "$W/cap/run.json" | grep -o '"send_lag_us":{[^}]*}' | sed 's/^/  /'
