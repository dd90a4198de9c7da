-- 019_drift.sql -- why a verdict is ? when a reason is known, and a
-- baseline that moved around a window (analysis/runstats.c Requirement 7).
-- Older analyses have them NULL / 0 (no reason, the baseline before).
ALTER TABLE deltas ADD COLUMN why TEXT;        -- ?: "stalls every 0.500 s, locked to the probe"
ALTER TABLE deltas ADD COLUMN local_base INTEGER NOT NULL DEFAULT 0; -- 1: against the baseline on both sides of the window
ALTER TABLE phases ADD COLUMN unstable TEXT;   -- a window: how the baseline around it moved
