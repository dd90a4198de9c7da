-- 009_servers.sql -- the servers of a run (a primary and its replicas) and
-- which server each server-side file came from, settled at ingest from
-- the files' content (INFO role, run_id, process_id, tcp_port; log pids,
-- startup and replication lines; CONFIG port), their names (replica*) and
-- run.json "files" roles. Rewritten for the whole run after each ingest.

-- Each process that wrote lines into a server log, as the log tells it.
CREATE TABLE procs (
    run     INTEGER NOT NULL,
    file    INTEGER NOT NULL,          -- files(id) of the log
    pid     INTEGER NOT NULL,
    roles   TEXT,                      -- role letters of its lines: M, S, C, X
    parent  INTEGER,                   -- the pid that forked it, NULL if none
    replica INTEGER NOT NULL DEFAULT 0, -- logged replica-side lines
    server  INTEGER NOT NULL DEFAULT 0, -- logged a startup line
    port    INTEGER,                   -- "Running mode=..., port=N"
    version TEXT,
    line    INTEGER                    -- its first line
);
CREATE INDEX procs_run ON procs(run);

CREATE TABLE servers (
    run     INTEGER NOT NULL,
    seq     INTEGER NOT NULL,          -- 1, 2, ... in order of first sight
    role    TEXT NOT NULL,             -- primary / replica
    pid     INTEGER,                   -- NULL when no file says
    port    INTEGER,
    version TEXT,
    run_id  TEXT,                      -- INFO run_id (the last one seen)
    how     TEXT NOT NULL,             -- what told it apart
    PRIMARY KEY (run, seq)
);

-- A file of a server. A log has one row per process that wrote into it
-- (a fork child's pid under the server that forked it), so a log two
-- servers wrote into is split per pid; other files have pid 0.
CREATE TABLE server_files (
    run     INTEGER NOT NULL,
    file    INTEGER NOT NULL,          -- files(id)
    server  INTEGER NOT NULL,          -- servers(seq) of the run
    pid     INTEGER NOT NULL DEFAULT 0,
    how     TEXT NOT NULL,             -- content / name / run.json / default
    PRIMARY KEY (run, file, server, pid)
);
CREATE INDEX server_files_file ON server_files(file);

-- The bytes a file held before `ingest --replace` replaced them: a copy of
-- them under another name is a copy of a superseded file, not new data.
CREATE TABLE replaced (
    run     INTEGER NOT NULL,
    path    TEXT NOT NULL,             -- the file's path then
    sha256  TEXT NOT NULL,
    size    INTEGER NOT NULL,
    at      INTEGER NOT NULL
);
CREATE INDEX replaced_run_sha ON replaced(run, sha256);
