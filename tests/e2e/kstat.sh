#!/bin/bash
# kstat.sh COWTAIL DATA -- a real capture's kernel account
# (tests/data/kstat/bgsave-2core: a bgsave of 800,000 keys on two cores
# under 20,000 SETs/s) decides the cause: CPU contention first, with the
# run-queue wait, copy-on-write with the main thread's faults and the
# fork as "also", the same words in the terminal, summary.md, index.html
# and the doctor; without kstat.csv the cause is the fork's as before.
set -u
. "$(dirname "$0")/lib.sh"
COW=$1
DATA=$2
cd "$WORK" || exit 2
cp -r "$DATA/bgsave-2core" run
"$COW" report --db k.db --out rep run > rep.out 2>&1
check "report exits 0" test $? = 0
cause='CPU contention: the main thread waited 261 ms on the run queue in 1.8 s (145 ms/s, against 47 ms/s before); also copy-on-write, 40,517 minor faults (22,449/s against 9/s before); the fork, 12.9 ms, which the run'"'"'s worst sample waited out'
check "summary.md: the cause is the kernel's account" has "Cause: $cause" rep/summary.md
check "summary.md: the answer's cause cell too" has "| $cause |" rep/summary.md
# (the page escapes the apostrophe: the words before it, then after it)
check "index.html: the same cause" has "$(printf '%s' "${cause%%, which the run*}" | sed 's/[()]/./g'), which the run[^ ]*s worst sample waited out" rep/index.html
check "the terminal: the same cause" has "$(printf '%s' "$cause" | sed 's/[()]/./g')" rep.out
check "the advice follows the first cause" has "Do: give the server and its fork child a core each" rep/summary.md
"$COW" doctor --db k.db > doc.out 2>&1
check "doctor: the finding cites kstat.csv's lines" has "minor faults.*run/kstat.csv:[0-9]*-[0-9]*" doc.out
check "doctor: the child's I/O" has "the fork child wrote 47.9 MB to storage" doc.out
rm run/kstat.csv
"$COW" report --db k2.db --out rep2 run > rep2.out 2>&1
check "without kstat.csv: no kernel account" not_has "kernel_account" rep2/summary.md
check "without kstat.csv: the cause is not the kernel's" not_has "minor faults (" rep2/summary.md
finish
