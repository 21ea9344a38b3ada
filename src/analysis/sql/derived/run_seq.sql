-- run_seq: per run_id over every valid event, its events, first and last
-- seq and number of distinct seqs (runs.sql reads it for seq gaps and
-- duplicates). Counting distinct seqs hashes every event, the costliest step
-- of a report, so it is done once per piece of a trace (run_seq_facts.sql)
-- and the pieces are added up here: exact when a run's seq ranges in
-- different pieces do not overlap (the usual case: one writer appending).
-- Runs whose ranges overlap (two copies of a trace, interleaved writers) are
-- counted again over their events.
CREATE OR REPLACE TEMP TABLE run_seq AS
WITH ordered AS (
  SELECT run_id, min_seq,
         max(max_seq) OVER (PARTITION BY run_id ORDER BY min_seq, max_seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS max_before
  FROM run_seq_facts),
overlapping AS (SELECT DISTINCT run_id FROM ordered WHERE min_seq <= max_before)
SELECT f.run_id,
       sum(f.events)::BIGINT AS events,
       min(f.min_seq)::BIGINT AS min_seq,
       max(f.max_seq)::BIGINT AS max_seq,
       sum(f.distinct_seq)::BIGINT AS distinct_seq
FROM run_seq_facts f
WHERE NOT EXISTS (SELECT 1 FROM overlapping o WHERE o.run_id IS NOT DISTINCT FROM f.run_id)
GROUP BY f.run_id
UNION ALL
SELECT e.run_id, count(*)::BIGINT, min(e.seq)::BIGINT, max(e.seq)::BIGINT, count(DISTINCT e.seq)::BIGINT
FROM events e
WHERE EXISTS (SELECT 1 FROM overlapping o WHERE o.run_id IS NOT DISTINCT FROM e.run_id)
GROUP BY e.run_id
