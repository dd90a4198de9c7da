#!/usr/bin/env python3
"""readme_table.py -- README.md's headline table, from the demo's summary.md.

    readme_table.py --write README.md SUMMARY.md    rewrite the table in place
    readme_table.py --check README.md SUMMARY.md    exit 1 (and show both)
                                                    when they differ

The table sits between two markers in README.md:

    <!-- readme-table runs="bgsave-t2 fullsync-disk steady" -->
    | run | baseline n | ...
    <!-- /readme-table -->

and is the rows of those runs, in that order, of the "## Headline" table
of SUMMARY.md (what `make demo` writes: build/demo-report/summary.md),
without its scenario column. `make readme-table` runs --write after the
demo; the test readme_table runs --check on a report of samples/."""

import re
import sys

BEGIN = re.compile(r'^<!-- readme-table runs="([^"]*)" -->$')
END = "<!-- /readme-table -->"


def cells(line):
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def row(cs):
    return "|" + "|".join(f" {c} " if c else " " for c in cs) + "|"


def headline(summary):
    lines = open(summary, encoding="utf-8").read().split("\n")
    start = lines.index("## Headline")
    table = []
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if line.startswith("|"):
            table.append(line)
        elif table:
            break
    head, align, body = cells(table[0]), cells(table[1]), [cells(t) for t in table[2:]]
    drop = head.index("scenario") if "scenario" in head else -1
    keep = [i for i in range(len(head)) if i != drop]
    pick = lambda cs: [cs[i] if i < len(cs) else "" for i in keep]
    # a run is named by its label; the row keeps the mark beside it
    # ("fleet/cache-e/bgsave **SYNTHETIC**")
    return pick(head), pick(align), {re.sub(r" \*\*[^*]*\*\*$", "", r[0]): pick(r) for r in body}


def table_for(runs, summary):
    head, align, rows = headline(summary)
    out = [row(head), row(align)]
    for r in runs:
        if r not in rows:
            sys.exit(f"readme_table: run {r!r} is not in {summary}'s Headline table")
        out.append(row(rows[r]))
    return out


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("--write", "--check"):
        sys.exit(__doc__)
    mode, readme, summary = sys.argv[1:]
    lines = open(readme, encoding="utf-8").read().split("\n")
    b = next((i for i, l in enumerate(lines) if BEGIN.match(l)), None)
    if b is None or END not in lines[b:]:
        sys.exit(f"readme_table: {readme} has no readme-table markers")
    e = lines.index(END, b)
    want = table_for(BEGIN.match(lines[b]).group(1).split(), summary)
    have = lines[b + 1:e]
    if mode == "--check":
        if have != want:
            print(f"readme_table: {readme}'s headline table differs from {summary} "
                  "(make readme-table rewrites it):", file=sys.stderr)
            for h in have:
                print("  README: " + h, file=sys.stderr)
            for w in want:
                print("  demo:   " + w, file=sys.stderr)
            return 1
        return 0
    new = lines[:b + 1] + want + lines[e:]
    if new != lines:
        with open(readme, "w", encoding="utf-8") as f:
            f.write("\n".join(new))
    return 0


if __name__ == "__main__":
    sys.exit(main())
