-- Runs (one row per writer, i.e. per run_id) and the logical runs they form.
-- Shards of one sharded run (`faultline run --shard i/n`) each keep their own
-- run_id and share run_start.logical_run_id (absent: the run is a logical run
-- of its own), so their traces merge here while staying apart.
-- sessions_cut_short = session_start without its session_end (the run was
-- killed, or events were lost): neither passed nor failed, and left out of
-- every pass rate (those are over ended sessions).
-- runs_without_run_end counts runs that wrote run_start (an imported trace has
-- neither, and was not killed); run_ended is '' for such a writer.
-- seq_gaps = seqs missing between a run's first and last seq (lost lines),
-- counted for runs that wrote run_start: their sink is the run's one writer
-- (an importer numbers one output across many run ids, so it gets none);
-- seq_duplicates = a seq seen twice (the same trace read twice, or two writers
-- sharing a run_id).
-- Per-run event counts and seq ranges come from run_seq (sql/derived/run_seq.sql:
-- one row per run_id of `events`, its events, min/max and distinct seqs).

-- table: started_sessions
-- Each session_start with whether its session ended and passed, joined once for every section below
-- (a session_end written twice gives two rows, as a join of the two would).
SELECT s.run_id, e.session_id IS NOT NULL AS ended, coalesce(e.outcome = 'passed', false) AS passed,
       e.outcome IS NOT NULL AS judged
FROM session_start s LEFT JOIN session_end e USING (run_id, session_id);

-- section: run_summary | Runs (writers) and logical runs | summary
-- flag: seq_gaps > 0 bad
-- flag: runs_without_run_end > 0 warn
-- flag: sessions_cut_short > 0 warn
-- flag: seq_duplicates > 0 warn
WITH per_run AS (
  SELECT run_id,
         CASE WHEN run_id IN (SELECT run_id FROM run_start) THEN max_seq - min_seq + 1 - distinct_seq END AS seq_gaps,
         CASE WHEN run_id IN (SELECT run_id FROM run_start) THEN events - distinct_seq END AS seq_duplicates
  FROM run_seq
),
starts AS (SELECT run_id, any_value(coalesce(logical_run_id, run_id)) AS logical_run_id FROM run_start GROUP BY run_id),
cut AS (SELECT count(*) FILTER (WHERE NOT ended) AS n FROM started_sessions)
SELECT count(*) AS runs,
       count(DISTINCT coalesce(st.logical_run_id, p.run_id)) AS logical_runs,
       count(*) FILTER (WHERE st.run_id IS NOT NULL AND p.run_id NOT IN (SELECT run_id FROM run_end)) AS runs_without_run_end,
       (SELECT n FROM cut) AS sessions_cut_short,
       coalesce(sum(p.seq_gaps), 0)::BIGINT AS seq_gaps,
       count(*) FILTER (WHERE p.seq_gaps > 0) AS writers_with_seq_gaps,
       coalesce(sum(p.seq_duplicates), 0)::BIGINT AS seq_duplicates
FROM per_run p LEFT JOIN starts st USING (run_id);

-- section: runs | Runs, one row per run_id (cut_short = started, no session_end; seq_gaps = lost lines) | first 50
-- flag: seq_gaps > 0 bad
-- flag: sessions_cut_short > 0 warn
-- flag: seq_duplicates > 0 warn
-- flag: run_ended = 'no' warn
WITH per_run AS (
  SELECT run_id,
         events,
         CASE WHEN run_id IN (SELECT run_id FROM run_start) THEN max_seq - min_seq + 1 - distinct_seq END AS seq_gaps,
         CASE WHEN run_id IN (SELECT run_id FROM run_start) THEN events - distinct_seq END AS seq_duplicates
  FROM run_seq
),
starts AS (
  SELECT run_id, any_value(logical_run_id) AS logical_run_id, any_value(shard_index) AS shard_index, any_value(shard_count) AS shard_count
  FROM run_start GROUP BY run_id
),
sessions AS (
  SELECT run_id,
         count(*) AS sessions_started,
         count(*) FILTER (WHERE ended) AS sessions_ended,
         count(*) FILTER (WHERE NOT ended) AS sessions_cut_short,
         count(*) FILTER (WHERE passed) AS passed
  FROM started_sessions
  GROUP BY run_id
)
SELECT coalesce(st.logical_run_id, p.run_id) AS logical_run_id,
       p.run_id,
       CASE WHEN st.shard_index IS NULL THEN '' ELSE st.shard_index || '/' || st.shard_count END AS shard,
       coalesce(se.sessions_started, 0) AS sessions_started,
       coalesce(se.sessions_ended, 0) AS sessions_ended,
       coalesce(se.sessions_cut_short, 0) AS sessions_cut_short,
       coalesce(se.passed, 0) AS passed,
       CASE WHEN p.run_id IN (SELECT run_id FROM run_end) THEN 'yes' WHEN st.run_id IS NULL THEN '' ELSE 'no' END AS run_ended,
       p.events,
       p.seq_gaps,
       p.seq_duplicates
FROM per_run p
LEFT JOIN starts st USING (run_id)
LEFT JOIN sessions se USING (run_id)
ORDER BY logical_run_id, st.shard_index NULLS LAST, p.run_id;

-- section: logical_runs | Logical runs (shards merged; pass rate over ended sessions) | first 50
-- flag: missing_shards != '' warn
-- flag: duplicate_shards > 0 warn
-- flag: sessions_cut_short > 0 warn
WITH starts AS (
  SELECT run_id, any_value(coalesce(logical_run_id, run_id)) AS logical_run_id, any_value(shard_index) AS shard_index, any_value(shard_count) AS shard_count
  FROM run_start GROUP BY run_id
),
runs AS (
  SELECT r.run_id, coalesce(st.logical_run_id, r.run_id) AS logical_run_id, st.shard_index, st.shard_count
  FROM (SELECT run_id FROM run_seq) r LEFT JOIN starts st USING (run_id)
),
shards AS (
  SELECT logical_run_id,
         count(*) AS runs,
         max(shard_count) AS shards_expected,
         count(DISTINCT shard_index) AS shards_seen,
         count(shard_index) - count(DISTINCT shard_index) AS duplicate_shards,
         count(DISTINCT shard_count) > 1 AS mixed_shard_counts
  FROM runs GROUP BY logical_run_id
),
missing AS (
  SELECT s.logical_run_id, string_agg(i::VARCHAR, ',' ORDER BY i) AS missing_shards
  FROM shards s, range(1, coalesce(s.shards_expected, 0) + 1) t(i)
  WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.logical_run_id = s.logical_run_id AND r.shard_index = i)
  GROUP BY s.logical_run_id
),
sessions AS (
  SELECT r.logical_run_id,
         count(*) AS sessions_started,
         count(*) FILTER (WHERE s.ended) AS sessions_ended,
         count(*) FILTER (WHERE NOT s.ended) AS sessions_cut_short,
         count(*) FILTER (WHERE s.passed) AS passed,
         count(*) FILTER (WHERE s.judged) AS judged
  FROM started_sessions s
  JOIN runs r ON r.run_id = s.run_id
  GROUP BY r.logical_run_id
)
SELECT s.logical_run_id,
       s.runs,
       coalesce(s.shards_expected, 1) AS shards_expected,
       CASE WHEN s.shards_expected IS NULL THEN 1 ELSE s.shards_seen END AS shards_seen,
       coalesce(m.missing_shards, '') AS missing_shards,
       s.duplicate_shards,
       s.mixed_shard_counts,
       coalesce(se.sessions_started, 0) AS sessions_started,
       coalesce(se.sessions_ended, 0) AS sessions_ended,
       coalesce(se.sessions_cut_short, 0) AS sessions_cut_short,
       coalesce(se.passed, 0) AS passed,
       -- NULL (not available in source) when an ended session has no outcome: an import that cannot judge is not 0% passed.
       CASE WHEN se.judged = se.sessions_ended THEN se.passed / nullif(se.sessions_ended, 0) END AS pass_rate_of_ended_sessions
FROM shards s
LEFT JOIN missing m USING (logical_run_id)
LEFT JOIN sessions se USING (logical_run_id)
ORDER BY s.logical_run_id;

-- section: run_identity | Runs: suite, provider, model and dates | header
-- Who ran what, when: the report header, one row per run_id. provider and
-- model come from run_start (the harness's own view: `mock`, a model name);
-- request_providers and request_models from model_request (the wires and
-- models actually called), which is all an imported trace has. Dates are the
-- first and last event of the run, in UTC; NULL where the source records no
-- time. transports: what answered its sessions (session_start.transport:
-- memory, http, live, replay); NULL where no session recorded it.
WITH starts AS (
  SELECT run_id, any_value(suite) AS suite, any_value(provider) AS provider, any_value(model) AS model
  FROM run_start GROUP BY run_id),
requests AS (
  SELECT run_id,
         string_agg(DISTINCT provider, ', ' ORDER BY provider) AS request_providers,
         string_agg(DISTINCT model, ', ' ORDER BY model) AS request_models
  FROM model_request GROUP BY run_id),
transports AS (
  SELECT run_id, string_agg(DISTINCT transport, ', ' ORDER BY transport) AS transports
  FROM session_start GROUP BY run_id),
-- From the pieces' per-run facts (sql/derived/run_seq_facts.sql): no pass over the events.
span AS (
  SELECT run_id, min(first_ts) AS first_ts, max(last_ts) AS last_ts FROM run_seq_facts GROUP BY run_id)
SELECT span.run_id,
       st.suite,
       coalesce(st.provider, r.request_providers) AS provider,
       coalesce(st.model, r.request_models) AS model,
       r.request_providers,
       r.request_models,
       t.transports,
       strftime(make_timestamp(span.first_ts * 1000), '%Y-%m-%d %H:%M:%S UTC') AS started,
       strftime(make_timestamp(span.last_ts * 1000), '%Y-%m-%d %H:%M:%S UTC') AS ended
FROM span
LEFT JOIN starts st USING (run_id)
LEFT JOIN requests r USING (run_id)
LEFT JOIN transports t USING (run_id)
ORDER BY span.first_ts NULLS LAST, span.run_id
LIMIT 1000;
