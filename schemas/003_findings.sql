-- 003_findings.sql -- what `cowtail doctor` concluded, replaced per run.
CREATE TABLE findings (
    run      INTEGER NOT NULL,
    seq      INTEGER NOT NULL,          -- order of the finding in the run
    rule     TEXT NOT NULL,             -- stable rule id (README)
    severity TEXT NOT NULL,             -- info / warning / critical
    title    TEXT NOT NULL,
    evidence TEXT NOT NULL,             -- JSON array of {metric, value, source}
    recommendation TEXT NOT NULL,
    PRIMARY KEY (run, seq)
);
