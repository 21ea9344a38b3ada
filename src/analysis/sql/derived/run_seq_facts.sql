-- Per-run seq facts of one piece of a trace (a cached segment, a Parquet
-- input, a fresh read), over the view `piece_rows`. Kept with the piece, so a
-- report of an unchanged trace never counts distinct seqs again (run_seq.sql),
-- nor reads every event for a run's first and last time (runs.sql).
SELECT run_id,
       count(*)::BIGINT AS events,
       min(seq)::BIGINT AS min_seq,
       max(seq)::BIGINT AS max_seq,
       count(DISTINCT seq)::BIGINT AS distinct_seq,
       min(ts)::BIGINT AS first_ts,
       max(ts)::BIGINT AS last_ts
FROM piece_rows
GROUP BY run_id
