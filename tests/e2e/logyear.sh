#!/bin/bash
# logyear.sh COWTAIL -- a log whose lines carry no year (Redis 3.x/4.x
# stamps) is dated by the file's modification time, and the report says so
# on its first screen, with --log-year to fix it; given the year, it says
# nothing of a guess.
set -u
. "$(dirname "$0")/lib.sh"
COW=$1
cd "$WORK" || exit 2
not_in_file() { ! grep -q -- "$1" "$2"; }
mkdir -p old/run
cat > old/run/redis.log << 'LOG'
3205:M 14 Mar 09:12:01.100 * Background saving started by pid 3301
3301:C 14 Mar 09:12:03.400 * DB saved on disk
3301:C 14 Mar 09:12:03.401 * RDB: 12 MB of memory used by copy-on-write
3205:M 14 Mar 09:12:03.500 * Background saving terminated with success
LOG
touch -d '2026-11-30 12:00:00 UTC' old/run/redis.log
"$COW" report --db old.db --out rep old > rep.out 2>&1
check "report of a year-less log: exit 0 (a guess is not a rejection)" test $? = 0
sed '/^## Headline/,$d' rep/summary.md > first-screen.md
check "first screen: the guessed year, from the file's date" \
    has '^- \*\*run\*\*: `old/run/redis.log`: its lines carry no year, and it was guessed: 2026 from the file.s modification time' first-screen.md
check "first screen: what to do" has 'ingest the folder again with --log-year YEAR' first-screen.md
check "the count says it" has 'with rejected lines, 1 log dated by a guessed year' first-screen.md
check "the terminal says it" has 'not every file landed whole (.*1 log dated by a guessed year)' rep.out
check "the workbook's Inputs sheet says it" sh -c "unzip -p rep/report.xlsx xl/sharedStrings.xml | grep -q 'year guessed'"
check "the events are dated in that year" \
    test "$(sqlite3 old.db "SELECT strftime('%Y', min(t_us) / 1e6, 'unixepoch') FROM events")" = 2026
"$COW" ingest --db given.db --log-year 2015 old > given.out 2>&1
check "--log-year 2015: exit 0" test $? = 0
check "--log-year 2015: the events are dated 2015" \
    test "$(sqlite3 given.db "SELECT strftime('%Y', min(t_us) / 1e6, 'unixepoch') FROM events")" = 2015
"$COW" report --db given.db --out rep2 > rep2.out 2>&1
check "--log-year given: no guess reported" not_in_file 'guessed' rep2/summary.md

# the run's own time settles the year: a Redis 2.8 log from a 2015 capture
# whose file was touched in 2026 is dated 2015, from run.json, no guess
mkdir -p ran/run
cp old/run/redis.log ran/run/redis.log
touch -d '2026-11-30 12:00:00 UTC' ran/run/redis.log
printf '{"scenario": "bgsave", "start_epoch_us": 1426324300000000}\n' > ran/run/run.json
"$COW" report --db ran.db --out rep3 ran > rep3.out 2>&1
check "run.json's start: exit 0" test $? = 0
check "run.json's start: the events are dated 2015, not the file's 2026" \
    test "$(sqlite3 ran.db "SELECT strftime('%Y', min(t_us) / 1e6, 'unixepoch') FROM events")" = 2015
check "run.json's start: no guess reported" not_in_file 'guessed' rep3/summary.md
check "run.json's start: the note says where the year came from" \
    test "$(sqlite3 ran.db "SELECT count(*) FROM files WHERE notes LIKE '%2015 from the run''s own time (run.json start_epoch_us%'")" = 1
# no run.json, but an INFO dump of the run: the server's own clock
# (server_time_usec, 2015-03-14) settles the year, not the file's 2026
mkdir -p inf/run
cp old/run/redis.log inf/run/redis.log
touch -d '2026-11-30 12:00:00 UTC' inf/run/redis.log
printf '# Server\r\nredis_version:3.2.12\r\nserver_time_usec:1426324300000000\r\nuptime_in_seconds:10\r\n# Memory\r\nused_memory:1048576\r\n' > inf/run/info.txt
"$COW" report --db inf.db --out rep5 inf > rep5.out 2>&1
check "INFO's clock: exit 0" test $? = 0
check "INFO's clock: the events are dated 2015, not the file's 2026" \
    test "$(sqlite3 inf.db "SELECT strftime('%Y', min(t_us) / 1e6, 'unixepoch') FROM events")" = 2015
check "INFO's clock: no guess reported" not_in_file 'guessed' rep5/summary.md
check "INFO's clock: the note says where the year came from" \
    test "$(sqlite3 inf.db "SELECT count(*) FROM files WHERE notes LIKE '%2015 from the run''s own time (INFO server_time_usec%'")" = 1
# a January capture: the log's December lines are the year before
mkdir -p jan/run
cat > jan/run/redis.log << 'LOG'
3205:M 31 Dec 23:59:01.100 * Background saving started by pid 3301
3301:C 01 Jan 00:00:03.400 * DB saved on disk
3205:M 01 Jan 00:00:03.500 * Background saving terminated with success
LOG
printf '{"start_epoch_us": 1420070340000000}\n' > jan/run/run.json
"$COW" ingest --db jan.db jan > jan.out 2>&1
check "a January run: the December line is the year before" \
    test "$(sqlite3 jan.db "SELECT strftime('%Y-%m', min(t_us) / 1e6, 'unixepoch') || ' ' || strftime('%Y-%m', max(t_us) / 1e6, 'unixepoch') FROM events")" = "2014-12 2015-01"
finish
