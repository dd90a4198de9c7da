#!/usr/bin/env python3
"""page_check.py -- what a reader of index.html relies on in its tables,
read with the standard library only.

    page_check.py INDEX.html

Fails (exit 1, one line per problem) unless:
  - every "Window against baseline" table shows the window's p99 and p99.9
    exactly as the same run's Phases table shows them (the estimate with
    its bound or interval): a bare number beside a delta would claim a
    two-sided interval it does not have;
  - no table says a verdict in words the legend does not explain
    ("unsure", "flat"): the verdict columns say lift / drop / ~ / ? / n/a;
  - the "x (>= b)" form is explained once in the answers, not twice;
  - each run's findings are most severe first (critical, warning, info)."""

import html.parser
import re
import sys


class Tables(html.parser.HTMLParser):
    """Tables in page order: (section id, caption, head, rows)."""

    def __init__(self):
        super().__init__()
        self.tables, self.section, self.cur, self.cell, self.row = [], "", None, None, None
        self.text = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "h2" and a.get("id"):
            self.section = a["id"]
        if tag == "table":
            self.cur = [self.section, "", [], []]
        elif self.cur is not None and tag in ("caption", "th", "td"):
            self.cell = []
        elif self.cur is not None and tag == "tr":
            self.row = []

    def handle_endtag(self, tag):
        if self.cur is None:
            return
        if tag == "caption":
            self.cur[1] = "".join(self.cell)
            self.cell = None
        elif tag == "th":
            self.cur[2].append("".join(self.cell))
            self.cell = None
        elif tag == "td":
            self.row.append("".join(self.cell))
            self.cell = None
        elif tag == "tr" and self.row:
            self.cur[3].append(self.row)
            self.row = None
        elif tag == "table":
            self.tables.append(tuple(self.cur))
            self.cur = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)
        self.text.append(data)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        page = f.read()
    p = Tables()
    p.feed(page)
    problems, compared = [], 0
    phases = {}
    for section, caption, head, rows in p.tables:
        if caption.startswith("Phases"):
            for r in rows:
                phases[(section, r[0], "p99")] = r[head.index("p99 (ms)")]
                phases[(section, r[0], "p99.9")] = r[head.index("p99.9 (ms)")]
        if "verdict" in head:
            k = head.index("verdict")
            for r in rows:
                if r[k] in ("unsure", "flat"):
                    problems.append("%s: verdict %r is not a legend word (%s)"
                                    % (section, r[k], caption[:40]))
        if caption.startswith("Window against baseline"):
            w = head.index("window (ms)")
            for r in rows:
                key = (section, r[0], r[1])
                if key in phases:
                    compared += 1
                    if r[w] != phases[key]:
                        problems.append("%s: %s %s shown %r beside its delta, %r in Phases"
                                        % (section, r[0], r[1], r[w], phases[key]))
    if compared == 0:
        problems.append("no window quantile compared with its Phases row")
    text = "".join(p.text)
    n = text.count("too few samples lie beyond it")
    if n != 1:
        problems.append("the x (>= b) form is explained %d times, not once" % n)
    rank = {"critical": 0, "warning": 1, "info": 2}
    for sec in re.split(r'<h2 id="', page)[1:]:
        sev = re.findall(r'class="finding (critical|warning|info)"', sec)
        if sev != sorted(sev, key=rank.get):
            problems.append("%s: findings not most severe first: %s"
                            % (sec.split('"')[0], " ".join(sev)))
    for line in problems:
        print(line)
    if not problems:
        print("page_check: %d window quantiles as in Phases" % compared)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
