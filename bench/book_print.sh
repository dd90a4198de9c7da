#!/bin/bash
# book_print.sh REPORT.xlsx -- the workbook as it prints: LibreOffice's PDF
# of it (A4, each sheet's own print setup), its page count, pages per
# sheet, and the smallest text on any page (the height of each word's box,
# which for this font is its printed size in points within about 1%).
# Needs libreoffice and poppler-utils (pdfinfo, pdftotext).
set -eu
xlsx=$1
command -v soffice > /dev/null || { echo "libreoffice is not installed"; exit 77; }
command -v pdftotext > /dev/null || { echo "poppler-utils is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$xlsx" "$work/book.xlsx"
(cd "$work" && HOME="$work" timeout 300 soffice --headless --convert-to pdf book.xlsx > /dev/null 2>&1)
pdfinfo "$work/book.pdf" | grep -E '^(Pages|Page size)'
pdftotext -bbox "$work/book.pdf" "$work/bb.html"
python3 - "$work/bb.html" << 'PY'
import re, sys
pages = open(sys.argv[1], encoding="utf-8").read().split("<page ")[1:]
per, small = {}, []
for i, p in enumerate(pages, 1):
    words = re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<', p)
    if not words:
        continue
    hs = sorted(float(b) - float(a) for _, a, b, _ in words)
    # the footer names the sheet at the bottom left ("Answers ... page N of M")
    sheet = max(words, key=lambda w: (round(float(w[1])), -float(w[0])))[3]
    per.setdefault(sheet, []).append(i)
    small.append((hs[0], hs[len(hs) // 2], i, sheet))
for sheet, ps in per.items():
    print(f"{sheet}: {len(ps)} pages")
lo = min(small)
body = min(small, key=lambda s: s[1])
print(f"smallest text: {lo[0]:.2f} pt (page {lo[2]}, {lo[3]}); "
      f"smallest page's median text: {body[1]:.2f} pt (page {body[2]}, {body[3]})")
PY
