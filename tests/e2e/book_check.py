#!/usr/bin/env python3
"""book_check.py -- what a reader of report.xlsx relies on, read from the
workbook's XML with the standard library only.

    book_check.py REPORT.xlsx

Fails (exit 1, one line per problem) unless:
  - the native chart of sheet Percentiles has one series per quantile its
    title names, and its p99.9 series has a value for every phase whose
    p99.9 has only a lower bound (an empty "p99.9 95% hi" cell): the
    estimate is plotted, never a blank;
  - every sheet prints landscape, one page wide, at 8 pt or more (its
    columns narrow enough), and every sheet with a table repeats its title
    and header rows on each page;
  - the title of each sheet is merged across its table (printed whole);
  - sheet Evidence has rows of rule, metric, value, file and line, with
    file:line split apart for the evidence that came from a file."""

import re
import sys
import zipfile


def sheet_paths(z):
    wb = z.read("xl/workbook.xml").decode()
    rels = z.read("xl/_rels/workbook.xml.rels").decode()
    target = dict(re.findall(r'Id="(rId\d+)"[^>]*Target="([^"]+)"', rels))
    target.update({a: b for b, a in re.findall(r'Target="([^"]+)"[^>]*Id="(rId\d+)"', rels)})
    out = []
    for name, rid in re.findall(r'<sheet name="([^"]+)" sheetId="\d+" r:id="(rId\d+)"', wb):
        out.append((name, "xl/" + target[rid].lstrip("/").replace("xl/", "")))
    return wb, out


def shared_strings(z):
    try:
        x = z.read("xl/sharedStrings.xml").decode()
    except KeyError:
        return []
    return [re.sub(r"<[^>]+>", "", si) for si in re.findall(r"<si>(.*?)</si>", x, re.S)]


def cells(xml, sst):
    """{(row, col letters): text or number string}"""
    out = {}
    for ref, attrs, body in re.findall(r'<c r="([A-Z]+\d+)"([^>]*?)(?:/>|>(.*?)</c>)', xml, re.S):
        m = re.match(r"([A-Z]+)(\d+)", ref)
        v = re.search(r"<v>([^<]*)</v>", body or "")
        if v is None:
            continue
        val = v.group(1)
        if 't="s"' in attrs:
            val = sst[int(val)]
        out[(int(m.group(2)), m.group(1))] = val
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    problems = []
    z = zipfile.ZipFile(sys.argv[1])
    sst = shared_strings(z)
    wb, sheets = sheet_paths(z)
    for name, path in sheets:
        x = z.read(path).decode()
        if 'orientation="landscape"' not in x:
            problems.append(f"sheet {name}: not landscape")
        if 'fitToPage="1"' not in x or 'fitToHeight="0"' not in x:
            problems.append(f"sheet {name}: not fitted to one page wide")
        # printed one page wide, a sheet keeps 8 pt of its 11 pt font when
        # its columns take at most 1,045 x 11 / 8 px (7 px a width unit,
        # 5 px padding a column; 10.89 printable inches of A4 landscape)
        widths = [float(w) for w in re.findall(r'<col [^>]*width="([\d.]+)"', x)]
        if widths and 7 * sum(widths) + 5 * len(widths) > 1045 * 11 / 8:
            problems.append(f"sheet {name}: {len(widths)} columns of {sum(widths):.0f} "
                            "units print below 8 pt one page wide")
        has_table = name != "Charts"
        if has_table and not re.search(r'_xlnm\.Print_Titles" localSheetId="%d">[^<]*\$1:\$2<'
                                       % [n for n, _ in sheets].index(name), wb):
            problems.append(f"sheet {name}: title and header rows not repeated on each page")
        if has_table and "<mergeCell ref=\"A1:" not in x and name != "Charts":
            dim = re.search(r'<dimension ref="A1:([A-Z]+)', x)
            if dim and dim.group(1) != "A":
                problems.append(f"sheet {name}: the title is not merged across the table")
    # the native chart of Percentiles
    names = [n for n, _ in sheets]
    pct = cells(z.read(dict(sheets)["Percentiles"]).decode(), sst)
    head = {v: c for (r, c), v in pct.items() if r == 2}
    charts = [n for n in z.namelist() if n.startswith("xl/charts/chart")]
    chart = None
    for c in charts:
        x = z.read(c).decode()
        if "Percentiles!" in x:
            chart = x
    if chart is None:
        problems.append("no native chart on sheet Percentiles")
    else:
        title = re.search(r"<c:title>.*?<a:t>(.*?)</a:t>", chart, re.S).group(1)
        sers = re.findall(r"<c:ser>(.*?)</c:ser>", chart, re.S)
        sname = [re.search(r"<c:strCache>.*?<c:v>(.*?)</c:v>", s, re.S).group(1) for s in sers]
        named = re.findall(r"p\d+(?:\.\d+)?", title.split(":")[0])
        if [s.split(" ")[0] for s in sname] != named:
            problems.append(f"chart series {sname} are not the quantiles its title names {named}")
        try:
            s999 = sers[[s.split(" ")[0] for s in sname].index("p99.9")]
            pts = dict(re.findall(r'<c:pt idx="(\d+)"><c:v>([^<]*)</c:v>',
                                  re.search(r"<c:val>.*?<c:numCache>(.*?)</c:numCache>",
                                            s999, re.S).group(1)))
            lo_col, hi_col = head["p99.9 95% lo (ms)"], head["p99.9 95% hi (ms)"]
            one_sided = 0
            for (r, c), v in pct.items():
                if c != lo_col or r < 3 or (r, hi_col) in pct:
                    continue
                one_sided += 1
                if str(r - 3) not in pts:
                    problems.append(f"chart: no p99.9 for {pct.get((r, 'A'))}, whose p99.9 "
                                    "has only a lower bound")
            if one_sided == 0:
                problems.append("no phase with a one-sided p99.9: the check proves nothing")
            print(f"book: p99.9 plotted for {one_sided} phases with only a lower bound")
        except (ValueError, KeyError, AttributeError) as ex:
            problems.append(f"chart: cannot read the p99.9 series ({ex})")
    # evidence rows
    if "Evidence" not in names:
        problems.append("no sheet Evidence")
    else:
        ev = cells(z.read(dict(sheets)["Evidence"]).decode(), sst)
        head = {v: c for (r, c), v in ev.items() if r == 2}
        for h in ("rule", "metric", "value", "file", "line"):
            if h not in head:
                problems.append(f"sheet Evidence: no column {h}")
        if not problems:
            rows = {r for (r, c) in ev if r > 2}
            with_line = [r for r in rows if (r, head["line"]) in ev]
            if not with_line:
                problems.append("sheet Evidence: no evidence with a file and line")
            for r in with_line:
                if ":" in ev[(r, head["file"])].rsplit("/", 1)[-1]:
                    problems.append(f"sheet Evidence row {r}: file:line not split")
            print(f"book: {len(rows)} evidence rows, {len(with_line)} with file and line")
    # Findings: a rule's recommendation written out once, its later rows
    # point at it (it repeats per run: printed, a third of the sheet)
    fd = cells(z.read(dict(sheets)["Findings"]).decode(), sst)
    hd = {v: k for (r, k), v in fd.items() if r == 2}
    if "rule" not in hd or "recommendation" not in hd:
        problems.append("sheet Findings: no column rule or recommendation")
    else:
        seen, recs = {}, {}
        for r in sorted({r for (r, k) in fd if r > 2}):
            rule, rec = fd.get((r, hd["rule"]), ""), fd.get((r, hd["recommendation"]), "")
            recs[r] = (rule, rec)
            m = re.fullmatch(r"as in row (\d+)", rec)
            if m:
                to = recs.get(int(m.group(1)))
                if to is None or to[0] != rule or to[1].startswith("as in row"):
                    problems.append(f"sheet Findings row {r}: points at row {m.group(1)}, "
                                    f"not a {rule} recommendation written out above")
                continue
            if (rule, rec) in seen:
                problems.append(f"sheet Findings row {r}: {rule}'s recommendation repeated "
                                f"(row {seen[(rule, rec)]})")
            seen.setdefault((rule, rec), r)
        print(f"book: {len(seen)} recommendations written out in sheet Findings")
    # Deltas: the title claims no one method; each row names its method,
    # and the verdicts are the legend's words (lift / drop / ~ / ? / n/a)
    dl = cells(z.read(dict(sheets)["Deltas"]).decode(), sst)
    if "bootstrap 95% intervals" in dl.get((1, "A"), ""):
        problems.append("sheet Deltas: the title calls every row a bootstrap interval")
    head = {v: c for (r, c), v in dl.items() if r == 2}
    if "method" not in head:
        problems.append("sheet Deltas: no column method")
    else:
        methods = {v for (r, c), v in dl.items() if r > 2 and c == head["method"]}
        if not {"bootstrap 95% interval", "exact tail test (one bound)"} <= methods:
            problems.append(f"sheet Deltas: methods {sorted(methods)} lack a bootstrap or "
                            "a tail-test row")
    for sh, col in (("Deltas", "verdict"), ("Summary", "p99.9 verdict")):
        c = dl if sh == "Deltas" else cells(z.read(dict(sheets)[sh]).decode(), sst)
        hd = {v: k for (r, k), v in c.items() if r == 2}
        bad = {v for (r, k), v in c.items() if r > 2 and k == hd.get(col)} - {
            "lift", "drop", "~", "?", "n/a"}
        if bad:
            problems.append(f"sheet {sh}: verdict words {sorted(bad)} not in the legend")
    for p in problems:
        print(f"book: {sys.argv[1]}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
