#!/usr/bin/env python3
"""check.py: sanity checks and quick numbers for the real captures.

    python3 samples/capture/check.py [samples/<run> ...]     (default: every run)

For each run folder written by capture.sh it checks that
  * latency.csv timestamps are epoch microseconds inside the run's wall time
    (the INFO series' first and last `# ts=` lines) and never go backwards;
  * the server log's save / sync / rewrite lines fall inside the latency span;
  * the log has its "Fork CoW for ..." line when a fork happened;
and prints p50 / p99 / p99.9 / max of the probe before the trigger and during
the fork child's life (from the log), rdb/aof_last_cow_size, latest_fork_usec,
and the Pss growth of primary + child (memory-pss.csv).

Quantiles are Hyndman-Fan type 7 (linear interpolation, numpy's default),
the same definition cowtail uses by default.  Standard library only.
"""
import csv
import datetime as dt
import json
import os
import re
import sys

LOG_RE = re.compile(r"^(\d+):([MSCX]) (\d\d \w{3} \d{4} \d\d:\d\d:\d\d\.\d{3}) (.) (.*)$")
START_PAT = ("Background saving started by pid", "Background RDB transfer started by pid",
             "Background append only file rewriting started by pid")
END_PAT = ("Background saving terminated", "Background RDB transfer terminated",
           "Background AOF rewrite finished", "Background transfer")


def q7(sorted_v, p):
    """Type 7 quantile of an already sorted list."""
    if not sorted_v:
        return float("nan")
    h = (len(sorted_v) - 1) * p
    lo = int(h)
    hi = min(lo + 1, len(sorted_v) - 1)
    return sorted_v[lo] + (h - lo) * (sorted_v[hi] - sorted_v[lo])


def stats(vals):
    v = sorted(vals)
    return "n=%5d p50=%7.1f p99=%7.1f p99.9=%7.1f max=%7.1f" % (
        len(v), q7(v, .5), q7(v, .99), q7(v, .999), v[-1] if v else float("nan"))


def log_events(path, tz_offset):
    """(epoch_us, pid, role, message) for every prefixed line of a server log."""
    out = []
    if not os.path.exists(path):
        return out
    sign = 1 if tz_offset[0] == "+" else -1
    off = sign * (int(tz_offset[1:3]) * 3600 + int(tz_offset[4:6]) * 60)
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LOG_RE.match(line.rstrip("\r\n"))
            if not m:
                continue
            t = dt.datetime.strptime(m.group(3), "%d %b %Y %H:%M:%S.%f")
            us = int((t.replace(tzinfo=dt.timezone.utc).timestamp() - off) * 1e6)
            out.append((us, int(m.group(1)), m.group(2), m.group(5)))
    return out


def info_series(path):
    """List of (ts_ms, {field: value}) from an info.txt series."""
    series, cur = [], None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line.startswith("# ts="):
                cur = {}
                series.append((int(line[5:]), cur))
            elif cur is not None and ":" in line and not line.startswith("#"):
                k, v = line.split(":", 1)
                cur[k] = v
    return series


def check_run(d):
    problems = []
    run = json.load(open(os.path.join(d, "run.json")))
    lat = []
    with open(os.path.join(d, "latency.csv")) as f:
        r = csv.reader(f)
        header = next(r)
        if header != ["timestamp_us", "latency_us", "op"]:
            problems.append("latency.csv header is %r" % header)
        for row in r:
            lat.append((int(row[0]), float(row[1])))
    info = info_series(os.path.join(d, "info.txt"))
    wall_lo, wall_hi = info[0][0] * 1000, info[-1][0] * 1000
    t_lo, t_hi = lat[0][0], lat[-1][0]
    if not (wall_lo <= t_lo and t_hi <= wall_hi):
        problems.append("latency span %d..%d outside INFO wall span %d..%d" % (t_lo, t_hi, wall_lo, wall_hi))
    if any(b[0] < a[0] for a, b in zip(lat, lat[1:])):
        problems.append("latency timestamps go backwards")

    ev = log_events(os.path.join(d, "redis.log"), run["log_tz"])
    starts = [e for e in ev if e[3].startswith(START_PAT)]
    ends = [e for e in ev if e[3].startswith(END_PAT)]
    cows = [e for e in ev if e[3].startswith("Fork CoW for")]
    for e in starts + ends:
        if not (t_lo <= e[0] <= t_hi):
            problems.append("log line outside latency span: %s" % e[3])
    if starts and not cows:
        problems.append("fork happened but no 'Fork CoW' line in redis.log")

    m = re.search(r"trigger '(\w+)' at epoch_ms (\d+)", run["notes"])
    trig_us = int(m.group(2)) * 1000 if m else None
    last = info[-1][1]
    print("== %s (%s)" % (os.path.basename(d.rstrip("/")), run["scenario"]))
    print("   latency span %s .. %s UTC, %d samples" % (
        dt.datetime.fromtimestamp(t_lo / 1e6, dt.timezone.utc).strftime("%H:%M:%S.%f")[:-3],
        dt.datetime.fromtimestamp(t_hi / 1e6, dt.timezone.utc).strftime("%H:%M:%S.%f")[:-3], len(lat)))
    if trig_us:
        print("   before trigger: " + stats([v for t, v in lat if t < trig_us]))
    if starts and ends:
        a, b = starts[0][0], ends[-1][0]
        print("   fork child %.3f s (log: '%s' .. '%s')" % ((b - a) / 1e6, starts[0][3][:36], ends[-1][3][:40]))
        print("   during child:   " + stats([v for t, v in lat if a <= t <= b]))
        print("   after child:    " + stats([v for t, v in lat if t > b]))
    elif trig_us:
        print("   after trigger:  " + stats([v for t, v in lat if t >= trig_us]))
    rev = log_events(os.path.join(d, "replica.log"), run["log_tz"])
    s0 = [e for e in ev if e[3].startswith("Starting BGSAVE for SYNC")]
    s1 = [e for e in rev if e[3].startswith("MASTER <-> REPLICA sync: Finished with success")]
    if s0 and s1:
        a, b = s0[0][0], s1[0][0]
        if not (t_lo <= b <= t_hi):
            problems.append("replica sync end outside latency span")
        print("   full sync %.3f s (primary 'Starting BGSAVE for SYNC' .. replica 'Finished with success')" % ((b - a) / 1e6))
        print("   during sync:    " + stats([v for t, v in lat if a <= t <= b]))
    for c in cows:
        print("   log: %s" % c[3])
    for k in ("latest_fork_usec", "rdb_last_cow_size", "aof_last_cow_size", "rdb_last_bgsave_time_sec",
              "sync_full", "used_memory"):
        if k in last:
            print("   %s=%s" % (k, last[k]), end="")
    print()
    pss_path = os.path.join(d, "memory-pss.csv")
    if os.path.exists(pss_path) and trig_us:
        rows = [(int(a), int(b)) for a, b in list(csv.reader(open(pss_path)))[1:]]
        before = [b for a, b in rows if a * 1000 < trig_us - 200000]
        peak = max(b for a, b in rows)
        if before:
            print("   primary+child Pss: before %.1f MB, peak %.1f MB, growth %.1f MB" % (
                before[-1] / 2**20, peak / 2**20, (peak - before[-1]) / 2**20))
    for p in problems:
        print("   PROBLEM: " + p)
    return not problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(here)
    # Only the folders capture.sh writes: samples/ also holds other batches.
    known = ("steady", "bgsave-t1", "bgsave-t2", "bgsave-t3", "fullsync-disk", "fullsync-diskless",
             "readonly-control", "aof-rewrite", "monitor-threshold-0")
    runs = sys.argv[1:] or [os.path.join(top, x) for x in known
                            if os.path.exists(os.path.join(top, x, "run.json"))]
    ok = all([check_run(d) for d in runs])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
