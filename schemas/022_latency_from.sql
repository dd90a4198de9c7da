-- 022_latency_from.sql -- a sample's other reading. A sample with an
-- intended send is stored as ingest read it (from the actual send, or with
-- --latency-from intended from the intended send); alt_us is the shift to
-- the other reading: t_us + alt_us is its time and lat_us - alt_us its
-- latency. Positive: stored at the intended send (the other is the actual
-- send); negative: stored at the actual send; 0: both are the same, or no
-- intended send is known. report, analyze and check read either
-- (--latency-from) without ingesting again.
ALTER TABLE samples ADD COLUMN alt_us INTEGER NOT NULL DEFAULT 0;
