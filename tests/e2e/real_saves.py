#!/usr/bin/env python3
"""real_saves.py ANALYZE.json -- the bundled real captures whose tail
visibly rose during the save, sync or rewrite get a lift at p99 or p99.9
in that window, or a '?' whose reason names a measured shortfall (what
the block test needs and what the run has); readonly-control (a sync
under a read-only load) gets no tail lift. Exit 1, one line per run that
breaks it. Standard library only."""
import json
import sys

ROSE = ["bgsave-t1", "bgsave-t2", "bgsave-t3", "fullsync-disk", "aof-rewrite",
        "monitor-threshold-0"] + ["forkless/fork-t%d" % i for i in range(1, 8)]
TAIL = ("p99", "p999")


def windows(run):
    return [d for d in run["deltas"] if d["baseline"] == "baseline" and d["phase"] != "after"
            and d["quantile"] in TAIL]


def main():
    runs = {r["label"]: r for r in json.load(open(sys.argv[1]))}
    problems = []
    for label in ROSE:
        ds = windows(runs[label])
        if not ds:
            problems.append(f"{label}: no window at p99 / p99.9")
            continue
        ok = [d for d in ds if d["verdict"] == "lift" or
              (d["verdict"] == "unsure" and "needs" in (d.get("why") or ""))]
        if not ok:
            problems.append(f"{label}: neither a lift nor a measured shortfall: " +
                            "; ".join(f"{d['quantile']} {d['verdict']} ({d.get('why')})" for d in ds))
        else:
            print(f"{label}: " + ", ".join(f"{d['quantile']} {d['verdict']}" for d in ds))
    ro = [d for d in windows(runs["readonly-control"]) if d["verdict"] == "lift"]
    if ro:
        problems.append("readonly-control: a tail lift: " + ", ".join(d["quantile"] for d in ro))
    for p in problems:
        print("FAIL: " + p, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
