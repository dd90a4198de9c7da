#!/bin/bash
# test-deb.sh DEB CAPTURE -- what a person does with the package on a
# fresh Debian 12: install it with dpkg -i (as root; otherwise it is only
# unpacked into a scratch folder), run the installed cowtail --version,
# render its man page with every groff warning fatal, and ingest CAPTURE.
set -euo pipefail
deb=$1 capture=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test-deb: $*" >&2; exit 1; }

dpkg-deb --field "$deb" Package Version Architecture Depends Description | tee "$work/fields"
for lib in libc6 libsqlite3-0 libcjson1 libcairo2 libxlsxwriter; do
    grep -q "^Depends: .*$lib" "$work/fields" || fail "Depends lacks $lib"
done
grep -q '^Description: analyse Redis' "$work/fields" || fail "no Description"
dpkg-deb --contents "$deb" >"$work/contents"
for f in ./usr/bin/cowtail ./usr/share/man/man1/cowtail.1.gz \
         ./usr/share/bash-completion/completions/cowtail ./usr/share/doc/cowtail/README.md; do
    grep -q " $f\$" "$work/contents" || fail "$deb lacks $f"
done

if [ "$(id -u)" = 0 ]; then
    dpkg -i "$deb"
    bin=/usr/bin/cowtail
    page=/usr/share/man/man1/cowtail.1.gz
    # a slim image may exclude /usr/share/man from what dpkg unpacks
    if [ ! -e "$page" ]; then
        dpkg-deb -x "$deb" "$work/root"
        page="$work/root/usr/share/man/man1/cowtail.1.gz"
    fi
else
    echo "test-deb: not root: unpacking $deb instead of installing it"
    dpkg-deb -x "$deb" "$work/root"
    bin="$work/root/usr/bin/cowtail"
    page="$work/root/usr/share/man/man1/cowtail.1.gz"
fi

"$bin" --version
gzip -dc "$page" >"$work/cowtail.1"
groff -man -Tutf8 -ww -z "$work/cowtail.1" 2>"$work/groff.err"
[ ! -s "$work/groff.err" ] || { cat "$work/groff.err" >&2; fail "man page warnings"; }
MANWIDTH=80 man -l "$work/cowtail.1" >"$work/page.txt" 2>"$work/man.err" ||
    fail "man -l failed: $(cat "$work/man.err")"
grep -q "EXIT STATUS" "$work/page.txt" || fail "rendered page has no EXIT STATUS"

(cd "$work" && "$bin" ingest --db run.db -q "$OLDPWD/$capture") ||
    fail "ingest of $capture with the installed cowtail failed"
"$bin" runs --db "$work/run.db" | grep -q . || fail "no run landed"
echo "test-deb: $deb installs, runs, documents itself and ingests"
