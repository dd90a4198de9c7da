#!/bin/bash
# circles.sh NM KNOWN OBJ... -- the files of one library as a graph (a file
# calls another when it uses a function or variable defined there, as nm
# lists them), and every circle in it printed as "circle: a -> b -> a (the
# symbol that closes it)"; exit 1 when there is one. OBJ: object files,
# also as one argument joined by ';'. KNOWN: files (space
# separated, "" for none) whose circles among themselves are known and
# said in docs/architecture.md; a circle of those files only is printed as
# "known circle" and does not fail.
set -u
NM=$1 KNOWN=$2; shift 2
# ctest passes $<TARGET_OBJECTS> as one argument, the paths joined by ';'
IFS=';' read -r -a objs <<< "$*"
for o in "${objs[@]}"; do
    o=${o# }
    f=$(basename "$o" .o); f=${f%.c}
    "$NM" "$o" | awk -v f="$f" 'NF == 3 && $2 ~ /^[TDBRGS]$/ {print "D", f, $3} $1 == "U" {print "U", f, $2}'
done | awk -v known="$KNOWN" '
    $1 == "D" { def[$3] = $2; next }
    { use[++n] = $2 " " $3 }
    END {
        nk = split(known, kl, " ")
        for (i = 1; i <= nk; i++) isknown[kl[i]] = 1
        for (i = 1; i <= n; i++) {
            split(use[i], a, " ")
            if ((a[2] in def) && def[a[2]] != a[1]) {
                e = a[1] SUBSEP def[a[2]]
                if (!(e in edge)) { edge[e] = a[2]; out[a[1]] = out[a[1]] " " def[a[2]] }
                nodes[a[1]]; nodes[def[a[2]]]
            }
        }
        bad = 0
        for (s in nodes) {           # a path back to s from s: a circle
            delete seen; delete via
            top = 0; stack[++top] = s; seen[s] = 1
            while (top > 0) {
                x = stack[top--]
                k = split(out[x], nb, " ")
                for (j = 1; j <= k; j++) {
                    y = nb[j]
                    if (y == s) {
                        z = x; p2 = ""; all = (s in isknown)
                        while (z != s) { p2 = z " -> " p2; all = all && (z in isknown); z = via[z] }
                        if (all) {
                            print "known circle: " s " -> " p2 s
                        } else {
                            print "circle: " s " -> " p2 s " (" edge[x SUBSEP s] " in " s ")"
                            bad = 1
                        }
                    } else if (!(y in seen)) { seen[y] = 1; via[y] = x; stack[++top] = y }
                }
            }
        }
        exit bad
    }'
