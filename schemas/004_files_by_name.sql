-- 004_files_by_name.sql -- a file is a duplicate when the same bytes come
-- under the same name in the same run; two files holding the same bytes
-- (two empty LATENCY replies) are two files. Drops UNIQUE (run, sha256),
-- which SQLite can only do by rebuilding the table.
CREATE TABLE files_new (
    id        INTEGER PRIMARY KEY,
    run       INTEGER NOT NULL REFERENCES runs(id),
    path      TEXT NOT NULL,
    size      INTEGER NOT NULL,
    sha256    TEXT NOT NULL,
    parser    TEXT NOT NULL,
    rows      INTEGER NOT NULL DEFAULT 0,
    rejected  INTEGER NOT NULL DEFAULT 0,
    notes     TEXT,
    ingested_at INTEGER NOT NULL
);
INSERT INTO files_new SELECT id, run, path, size, sha256, parser, rows, rejected,
    notes, ingested_at FROM files;
DROP TABLE files;
ALTER TABLE files_new RENAME TO files;
CREATE INDEX files_run_sha ON files(run, sha256);
