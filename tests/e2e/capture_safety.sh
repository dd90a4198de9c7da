#!/bin/bash
# capture_safety.sh COWTAIL PART -- the capture against a hostile server
# (tests/e2e/fake_resp.py on 127.0.0.1, stopped by pid) and a hostile folder:
#   PART timeout: a server that never answers: a named timeout, soon
#   PART signal:  a server that answers one byte at a time: SIGTERM ends the
#                 capture within about a second
#   PART forge:   '# ts=' lines inside INFO replies are escaped, and ingest
#                 finds no poll they forged
#   PART symlink: --out a symbolic link to a folder: refused, and said why
#   PART full:    a write fails (a 2 MB tmpfs filled, else RLIMIT_FSIZE):
#                 exit 3, run.json "complete": false with what was lost,
#                 ingest reads what landed
#   PART replytime: a server that answers each PING 25 or 15 ms late in
#                 turn: each sample's round trip is its own reply's arrival,
#                 not when the probe woke to read it (a probe every 100 ms,
#                 then every 20 ms, where two replies land between two slots)
#   PART replies: a server that answers every 3rd PING with an error and
#                 sends every 5th reply in two pieces: each row says which
# Exit 77 (skipped) without python3, or for full without either way.
set -u
COW=$1
PART=$2
. "$(dirname "$0")/lib.sh"
command -v python3 > /dev/null || { echo "python3 not installed: skipped"; exit 77; }
FAKE_PID=
MNT=
cleanup() {
    [ -n "$FAKE_PID" ] && kill "$FAKE_PID" 2> /dev/null && wait "$FAKE_PID" 2> /dev/null
    [ -n "$MNT" ] && umount "$MNT" 2> /dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

start_fake() { # start_fake MODE -> FAKE_PID, PORT
    python3 "$(dirname "$0")/fake_resp.py" "$WORK/port" "$1" &
    FAKE_PID=$!
    for _ in $(seq 1 50); do [ -s "$WORK/port" ] && break; sleep 0.1; done
    PORT=$(cat "$WORK/port")
}
ms() { date +%s%3N; }

case $PART in
timeout)
    start_fake silent
    t0=$(ms)
    "$COW" capture --port "$PORT" --out "$WORK/out" --duration 2s > "$WORK/o" 2> "$WORK/e"
    rc=$?
    t=$(( $(ms) - t0 ))
    check "a silent server: exit 3" test "$rc" = 3
    check "a silent server: the timeout is named" has "127.0.0.1:$PORT did not answer INFO within 10 s" "$WORK/e"
    check "a silent server: no 'INFO failed'" sh -c "! grep -q 'INFO failed' '$WORK/e'"
    check "a silent server: over in 13 s ($t ms)" test "$t" -lt 13000
    check "a silent server: no folder" test ! -e "$WORK/out"
    ;;
signal)
    start_fake dribble
    "$COW" capture --port "$PORT" --out "$WORK/out" --duration 60s > "$WORK/o" 2> "$WORK/e" &
    cp=$!
    for _ in $(seq 1 50); do [ -e "$WORK/out" ] && break; sleep 0.1; done
    sleep 0.5
    t0=$(ms)
    kill -TERM "$cp"
    wait "$cp"
    t=$(( $(ms) - t0 ))
    check "one byte at a time: SIGTERM ends the capture within 1.5 s ($t ms)" test "$t" -lt 1500
    check "one byte at a time: run.json written" test -s "$WORK/out/run.json"
    check "one byte at a time: run.json says it was interrupted" has '"interrupted":.*SIGTERM' "$WORK/out/run.json"
    ;;
forge)
    start_fake forge
    "$COW" capture --port "$PORT" --out "$WORK/out" --duration 2s > "$WORK/o" 2> "$WORK/e"
    check "forge: capture exit 0" test $? = 0
    n_polls=$(grep -c '^# ts=' "$WORK/out/info.txt")
    check "forge: the forged lines are escaped" has '^cowtail_escaped_line:# ts=1796268000123' "$WORK/out/info.txt"
    check "forge: every '# ts=' line is the capture's ($n_polls)" test "$n_polls" = "$(grep -c '^# Server' "$WORK/out/info.txt")"
    "$COW" ingest --db "$WORK/db" "$WORK/out" > "$WORK/i" 2>&1
    check "forge: ingest reads the folder" has "info.txt" "$WORK/i"
    check "forge: ingest finds one dump per poll, none forged" has "$n_polls INFO dump" "$WORK/i"
    ;;
symlink)
    start_fake forge
    mkdir "$WORK/real"
    ln -s real "$WORK/link"
    for out in "$WORK/link" "$WORK/link/"; do
        "$COW" capture --port "$PORT" --out "$out" --duration 1s > "$WORK/o" 2> "$WORK/e"
        check "symlink $out: exit 2" test $? = 2
        check "symlink $out: said to be a link" has "is a symbolic link: cowtail does not write a capture through links" "$WORK/e"
        check "symlink $out: nothing written" test -z "$(ls -A "$WORK/real")"
    done
    ;;
full)
    start_fake forge
    MNT=$WORK/mnt
    mkdir "$MNT"
    if mount -t tmpfs -o size=2m tmpfs "$MNT" 2> /dev/null; then
        # leave some 64 KB: run.json and the first files fit, the INFO polls do not
        dd if=/dev/zero of="$MNT/filler" bs=4k count=496 2> /dev/null
        "$COW" capture --port "$PORT" --out "$MNT/out" --duration 20s --info-every 10ms \
            > "$WORK/o" 2> "$WORK/e"
        rc=$?
        rm -f "$MNT/filler" # room for what follows
        out=$MNT/out
        how=tmpfs
    else
        MNT=
        ulimit -f 4 2> /dev/null || { echo "neither a tmpfs nor RLIMIT_FSIZE: skipped"; exit 77; }
        ( trap '' XFSZ; ulimit -f 4; exec "$COW" capture --port "$PORT" --out "$WORK/out" \
            --duration 20s --info-every 10ms ) > "$WORK/o" 2> "$WORK/e"
        rc=$?
        out=$WORK/out
        how=rlimit
    fi
    echo "full: by $how"
    check "full ($how): exit 3" test "$rc" = 3
    check "full ($how): the message names the file" has "capture: incomplete: the write to [a-z_.-]*: " "$WORK/e"
    check "full ($how): run.json written" test -s "$out/run.json"
    check "full ($how): run.json says incomplete" has '"complete":.*false' "$out/run.json"
    check "full ($how): run.json says what was lost" has '"lost":.*"everything after the failed write to ' "$out/run.json"
    "$COW" ingest --db "$WORK/db" "$out" > "$WORK/i" 2>&1
    check "full ($how): ingest reads what landed" has "into 1 run" "$WORK/i"
    ;;
replytime)
    start_fake delay
    for rate in 100ms 20ms; do
        out=$WORK/rt$rate
        "$COW" capture --port "$PORT" --out "$out" --duration 3s --rate "$rate" \
            --no-proc -q > "$WORK/o" 2> "$WORK/e"
        check "replytime $rate: capture exit 0" test $? = 0
        # the connection's 1st, 3rd ... PING (rows 2, 4, ...) waits 25 ms,
        # the others 15 ms: round trips (us) by row parity, sorted
        awk -F, 'NR > 1 && NR % 2 == 0 { print $2 }' "$out/latency.csv" | sort -n > "$WORK/a"
        awk -F, 'NR > 1 && NR % 2 == 1 { print $2 }' "$out/latency.csv" | sort -n > "$WORK/b"
        na=$(wc -l < "$WORK/a")
        nb=$(wc -l < "$WORK/b")
        a50=$(awk '{ v[NR] = $1 } END { print int(v[int((NR + 1) / 2)]) }' "$WORK/a")
        b50=$(awk '{ v[NR] = $1 } END { print int(v[int((NR + 1) / 2)]) }' "$WORK/b")
        echo "replytime $rate: 25 ms replies median $a50 us, least $(head -1 "$WORK/a") ($na);" \
            "15 ms replies median $b50 us, least $(head -1 "$WORK/b") ($nb)"
        check "replytime $rate: samples landed ($na + $nb)" test $((na + nb)) -ge 20
        check "replytime $rate: no reply before the server sent it" \
            test "$(head -1 "$WORK/a" | cut -d. -f1)" -ge 24900 -a "$(head -1 "$WORK/b" | cut -d. -f1)" -ge 14900
        check "replytime $rate: the 25 ms replies' median is theirs ($a50 us)" \
            test "$a50" -lt 30000
        check "replytime $rate: the 15 ms replies' median is theirs ($b50 us)" \
            test "$b50" -lt 20000
        check "replytime $rate: run.json says how replies were timed" \
            has '"reply_time":.*"kernel receive stamp' "$out/run.json"
    done
    ;;
replies)
    start_fake mixed
    out=$WORK/out
    # a slot of 30 ms against a split of 5 ms: a reply completed a slot
    # late reads >= 30 ms, while a loaded test machine may stretch the
    # server's 5 ms sleep well past 9 ms (a 10 ms slot made that a false
    # failure)
    "$COW" capture --port "$PORT" --out "$out" --duration 4s --rate 30ms --no-proc -q \
        > "$WORK/o" 2> "$WORK/e"
    check "replies: capture exit 0" test $? = 0
    # row NR answers the connection's (NR - 1)th PING
    awk -F, 'NR > 1 { print ((NR - 1) % 3 == 0 ? "error" : "ping"), $3 }' \
        "$out/latency.csv" > "$WORK/ops"
    n=$(wc -l < "$WORK/ops")
    nerr=$(awk '$2 == "error"' "$WORK/ops" | wc -l)
    check "replies: samples landed ($n)" test "$n" -ge 100
    check "replies: every 3rd reply an error, the others PONG" \
        test "$(awk '$1 != $2' "$WORK/ops" | wc -l)" = 0
    check "replies: run.json counts the errors ($nerr)" \
        has "\"errors\":[[:space:]]*$nerr," "$out/run.json"
    check "replies: a reply in two pieces is one sample, not late by a slot" \
        awk -F, 'NR > 1 && (NR - 1) % 5 == 0 && ($2 < 4900 || $2 > 20000) { exit 1 }' "$out/latency.csv"
    ;;
*) echo "unknown part $PART" >&2; exit 2 ;;
esac
finish
