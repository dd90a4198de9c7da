-- Serial dependence and the decision rule behind each verdict.
-- Existing analyses lack them: they are dropped, and every reading
-- command analyses a run again when it finds none.
ALTER TABLE quantiles ADD COLUMN n_eff REAL;     -- effective samples at q
ALTER TABLE deltas ADD COLUMN n_eff_base REAL;   -- baseline's n_eff at q
ALTER TABLE deltas ADD COLUMN n_eff_phase REAL;  -- the phase's n_eff at q
ALTER TABLE deltas ADD COLUMN method TEXT;       -- bootstrap / tail-test
ALTER TABLE deltas ADD COLUMN p_up REAL;         -- one-sided p, delta > 0
ALTER TABLE deltas ADD COLUMN p_down REAL;       -- one-sided p, delta < 0
ALTER TABLE deltas ADD COLUMN test_level REAL;   -- pooled level the tail test counted beyond
ALTER TABLE exceed ADD COLUMN clusters INTEGER;  -- clusters of the exceedances
ALTER TABLE exceed ADD COLUMN p_more REAL;       -- tail test: more beyond than the baseline
DELETE FROM exceed;
DELETE FROM deltas;
DELETE FROM quantiles;
DELETE FROM phases;
DELETE FROM analyses;
