#!/usr/bin/env python3
"""answer_table.py -- the answer table of a report folder, read three ways.

    answer_table.py REPORT_DIR            print it (tab-separated) when the
                                          three agree, else exit 1
    answer_table.py --check-rules REPORT_DIR
                                          also check that each row's numbers
                                          read against each other

Reads the table that opens summary.md (the first Markdown table under
"## The answer", escapes undone), the table id="answer-table" of
index.html (parsed, entities decoded) and the first sheet of report.xlsx
(xl/workbook.xml's first sheet, its cells through sharedStrings.xml),
header row and data rows, and fails unless all three hold the same cells.
Standard library only.

The rules (--check-rules), one line per row that breaks one:
  - delta: the p99.9 before the arrow plus the verdict's delta is the
    p99.9 after it (to the printed rounding): the baseline shown is the
    one the delta was taken against;
  - (a bound under the baseline's median printed "not bounded" is held by
    test_common's quant_floor rows and test_app's answer table rows);
  - threshold: "N of M beyond X": X is the p99 printed before the arrow;
  - gate: a row whose verdict is a lift never says "but not shown to be";
  - sheets: the workbook's Answers sheet (its second) shows, for each run
    of the table, the same p99.9 reference before the arrow and the same
    delta: one number per thing, whichever sheet it is read in."""

import html.parser
import re
import sys
import zipfile


def md_cells(line):
    """Split a Markdown table row on unescaped '|' and undo the escapes."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells, cur, i = [], [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body) and not body[i + 1].isalnum() and body[i + 1] != " ":
            cur.append(body[i + 1])
            i += 2
            continue
        if c == "*":  # unescaped: emphasis (a run's mark, **SYNTHETIC**)
            i += 1
            continue
        if c == "|":
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    cells.append("".join(cur).strip())
    return cells


def from_md(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        start = lines.index("## The answer")
    except ValueError:
        return None
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if line.startswith("|"):
            rows.append(line)
        elif rows:
            break
    if len(rows) < 2:
        return []
    return [md_cells(rows[0])] + [md_cells(r) for r in rows[2:]]


class AnswerTable(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.inside, self.row, self.cell = [], False, None, None

    def handle_starttag(self, tag, attrs):
        if tag == "table" and dict(attrs).get("id") == "answer-table":
            self.inside = True
        elif self.inside and tag == "tr":
            self.row = []
        elif self.inside and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if not self.inside:
            return
        if tag in ("td", "th") and self.cell is not None:
            self.row.append("".join(self.cell).strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None
        elif tag == "table":
            self.inside = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def from_html(path):
    p = AnswerTable()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return p.rows


def col_index(letters):
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def from_xlsx(path, index=0):
    import xml.etree.ElementTree as ET
    ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
          "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships"}
    z = zipfile.ZipFile(path)
    wb = ET.fromstring(z.read("xl/workbook.xml"))
    sheets = wb.findall("m:sheets/m:sheet", ns)
    if isinstance(index, str):  # a sheet by its name
        index = [s.get("name") for s in sheets].index(index)
    first = sheets[index]
    rid = first.get("{%s}id" % ns["r"])
    rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    target = [r.get("Target") for r in rels if r.get("Id") == rid][0]
    sheet = ET.fromstring(z.read("xl/" + target.lstrip("/").replace("xl/", "")))
    sst = []
    if "xl/sharedStrings.xml" in z.namelist():
        for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", ns):
            sst.append("".join(t.text or "" for t in si.iter("{%s}t" % ns["m"])))
    grid = {}
    for c in sheet.iter("{%s}c" % ns["m"]):
        m = re.match(r"([A-Z]+)(\d+)", c.get("r"))
        v = c.find("m:v", ns)
        if v is None:
            is_ = c.find("m:is", ns)
            text = "".join(t.text or "" for t in is_.iter("{%s}t" % ns["m"])) if is_ is not None else ""
        elif c.get("t") == "s":
            text = sst[int(v.text)]
        else:
            text = v.text or ""
        grid.setdefault(int(m.group(2)), {})[col_index(m.group(1))] = text
    rows = sorted(grid)
    # row 1 is the sheet's title (the table's caption); row 2 the header
    ncols = len(grid[rows[1]]) if len(rows) > 1 else 0
    out = []
    for r in rows[1:]:
        out.append([grid[r].get(c, "").strip() for c in range(ncols)])
    return out


NUM = r"[-+]?\d+\.\d+"


def check_rules(rows):
    head, problems = rows[0], []
    col = {h: i for i, h in enumerate(head)}
    p999 = [h for h in head if h.startswith("p99.9 before")][0]
    p99 = [h for h in head if h.startswith("p99 before")][0]
    verdict = [h for h in head if h.startswith("verdict")][0]
    slow = [h for h in head if h.startswith("slower than")][0]
    for r in rows[1:]:
        run = r[0]
        m = re.match(r"(%s)[^\u2192]*\u2192 (%s)" % (NUM, NUM), r[col[p999]])
        d = re.match(r"\S+ (%s)" % NUM, r[col[verdict]])
        if m and d:
            before, after, delta = float(m.group(1)), float(m.group(2)), float(d.group(1))
            if abs(before + delta - after) > 0.0015:
                problems.append(f"{run}: delta: {before} + {delta} != {after}")
        m = re.match(r"(%s)" % NUM, r[col[p99]])
        s = re.match(r"\d+ of \d+ beyond (%s)" % NUM, r[col[slow]])
        if m and s and m.group(1) != s.group(1):
            problems.append(f"{run}: threshold: beyond {s.group(1)}, p99 before {m.group(1)}")
        if r[col[verdict]].startswith("lift") and "but not shown to be" in r[col["gate"]]:
            problems.append(f"{run}: gate: a lift the gate says is not shown")
    return problems


def check_sheets(rows, answers):
    head, problems = rows[0], []
    col = {h: i for i, h in enumerate(head)}
    p999 = [h for h in head if h.startswith("p99.9 before")][0]
    verdict = [h for h in head if h.startswith("verdict")][0]
    ah = answers[0]
    base = [i for i, h in enumerate(ah) if h.startswith("baseline p99.9")][0]
    delta = [i for i, h in enumerate(ah) if h.startswith("p99.9 delta")][0]
    by_run = {r[0]: r for r in answers[1:]}
    for r in rows[1:]:
        a = by_run.get(r[0])
        if a is None:
            problems.append(f"{r[0]}: sheets: not on the Answers sheet")
            continue
        ref = r[col[p999]].split(" \u2192 ")[0]
        if a[base] != ref:
            problems.append(f"{r[0]}: sheets: Answers' baseline {a[base]!r}, the answer's {ref!r}")
        # the Answers sheet gives a ?'s delta without its reason (the
        # answer's): "+1.929 (cannot tell)" for "? +1.929 (cannot tell: ...)"
        said = re.sub(r"\(cannot tell: .*\)(;|$)", r"(cannot tell)\1", r[col[verdict]])
        if a[delta] and a[delta] not in said:
            problems.append(f"{r[0]}: sheets: Answers' delta {a[delta]!r}, the answer's {r[col[verdict]]!r}")
    return problems


def check_events(events):
    """A long log text is written once per event kind; later rows say
    'as in row N', N the sheet row that holds it for the same event."""
    head, problems = events[0], []
    ev, text = head.index("event"), head.index("log text")
    seen = {}
    for i, r in enumerate(events[1:]):
        m = re.fullmatch(r"as in row (\d+)", r[text])
        if m:
            k = int(m.group(1)) - 3  # sheet row: title, header, then the rows
            if not (0 <= k < i) or events[1 + k][ev] != r[ev] or len(events[1 + k][text]) < 80:
                problems.append(f"Events row {i + 3}: {r[text]!r} points at no long text of {r[ev]}")
        elif len(r[text]) >= 80:
            if (r[ev], r[text]) in seen:
                problems.append(f"Events row {i + 3}: the text of row {seen[(r[ev], r[text])]} again")
            seen[(r[ev], r[text])] = i + 3
    if not seen:
        problems.append("Events: no long log text at all (the check would prove nothing)")
    return problems


def main():
    args = sys.argv[1:]
    rules = "--check-rules" in args
    args = [a for a in args if a != "--check-rules"]
    if len(args) != 1:
        sys.exit(__doc__)
    d = args[0]
    md, page, book = from_md(d + "/summary.md"), from_html(d + "/index.html"), from_xlsx(d + "/report.xlsx")
    problems = []
    if not md:
        problems.append("summary.md: no answer table under '## The answer'")
    if md != page:
        problems.append(f"index.html differs from summary.md: {page[:2]} vs {md[:2] if md else md}")
    if md != book:
        for i, (a, b) in enumerate(zip(md or [], book)):
            if a != b:
                problems.append(f"report.xlsx row {i} differs from summary.md: {b} vs {a}")
                break
        else:
            problems.append(f"report.xlsx has {len(book)} rows, summary.md {len(md or [])}")
    if rules and md:
        problems += check_rules(md)
        problems += check_sheets(md, from_xlsx(d + "/report.xlsx", 1))
        problems += check_events(from_xlsx(d + "/report.xlsx", "Events"))
    if problems:
        for p in problems:
            print("FAIL: " + p, file=sys.stderr)
        sys.exit(1)
    for r in md:
        print("\t".join(r))


if __name__ == "__main__":
    main()
