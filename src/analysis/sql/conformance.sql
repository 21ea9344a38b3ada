-- Protocol conformance (the black-box lab, docs/harness-rules.md#one-result-per-call, docs/harness-rules.md#stable-prefix, docs/harness-rules.md#results-in-one-message, docs/harness-rules.md#results, docs/harness-rules.md#schema-dialects):
-- `conformance` events are violations, `conformance_stats` say per session
-- how often each check looked (evaluated) and fired. The prefix hit rate is
-- simulated prompt caching: a request hits when its prefix_hash (system +
-- tools) equals the previous request's in the same session; the first
-- request of a session has nothing to hit. Schema bloat is the bytes the
-- lab counted on undocumented schema keys ($schema, $id, $comment).

-- table: request_sessions
-- Model requests per session, and per input file (a copy of a run is a sequence of its own): a
-- session whose requests all carry one prefix_hash hits on every request after its first, so only
-- the others are ordered to compare each request with the one before it.
SELECT file_id, run_id, session_id, count(*) AS requests,
       count(prefix_hash) = count(*) AND min(prefix_hash) = max(prefix_hash) AS one_prefix
FROM model_request GROUP BY file_id, run_id, session_id;

-- table: lab_sessions
SELECT DISTINCT run_id, session_id FROM conformance_stats;

-- section: conformance_summary | Conformance (violations over lab sessions; prefix hits over model requests after each session's first) | summary
-- flag: error_violations > 0 bad
-- flag: warning_violations > 0 warn
WITH ordered AS (
  -- Partitioned by the key's two columns, not the session_key struct: a window over a struct key is about
  -- twice as slow, and a model_request always has a session, so the partitions are the same.
  SELECT prefix_hash, lag(prefix_hash) OVER (PARTITION BY file_id, run_id, session_id ORDER BY seq) AS previous
  FROM model_request JOIN (SELECT file_id, run_id, session_id FROM request_sessions WHERE NOT one_prefix) USING (file_id, run_id, session_id)),
prefix AS (
  SELECT sum(later_requests) AS later_requests, sum(prefix_hits) AS prefix_hits FROM (
    SELECT count(previous) AS later_requests, count(*) FILTER (WHERE previous = prefix_hash) AS prefix_hits FROM ordered
    UNION ALL
    SELECT coalesce(sum(requests - 1), 0), coalesce(sum(requests - 1), 0) FROM request_sessions WHERE one_prefix)),
lab AS (
  SELECT count(*) AS sessions FROM lab_sessions),
lab_requests AS (
  SELECT count(*) AS n FROM model_request JOIN lab_sessions USING (run_id, session_id)),
v AS (
  SELECT count(*) FILTER (WHERE severity = 'error') AS errors,
         count(*) FILTER (WHERE severity = 'warning') AS warnings,
         coalesce(sum(bytes) FILTER (WHERE check_id = 'undocumented_schema_keys'), 0) AS bloat
  FROM conformance)
SELECT lab.sessions AS lab_sessions,
       v.errors AS error_violations,
       v.warnings AS warning_violations,
       prefix.later_requests::BIGINT AS later_requests,
       prefix.prefix_hits::BIGINT AS prefix_hits,
       prefix.prefix_hits / nullif(prefix.later_requests, 0) AS prefix_hit_rate_of_later_requests,
       v.bloat::BIGINT AS schema_bloat_bytes,
       v.bloat / nullif(lab_requests.n, 0) AS schema_bloat_bytes_per_lab_request
FROM lab, lab_requests, v, prefix;

-- section: conformance_checks | Conformance checks (evaluated = opportunities the check looked at; not_exercised = no scenario reached it)
-- flag: violations > 0 bad
-- flag: status = 'violated' bad
SELECT check_id,
       any_value(severity) AS severity,
       count(*) FILTER (WHERE evaluated > 0) AS sessions_evaluated,
       sum(evaluated)::BIGINT AS evaluated,
       sum(violations)::BIGINT AS violations,
       count(*) FILTER (WHERE violations > 0) AS sessions_violated,
       sum(violations) / nullif(sum(evaluated), 0) AS violation_rate_of_evaluated,
       CASE WHEN sum(violations) > 0 THEN 'violated' WHEN sum(evaluated) = 0 THEN 'not_exercised' ELSE 'passed' END AS status
FROM conformance_stats
GROUP BY check_id
ORDER BY violations DESC, severity, check_id;

-- section: conformance_violations | Conformance violations (the first 50) | first 50
SELECT task_id, session_id, turn, check_id, severity, source, detail
FROM conformance
ORDER BY severity, check_id, session_id, run_id, turn, seq, detail;

-- section: tool_result_sizes | Tool result sizes (output_bytes of tool_success events) | summary
SELECT results, q[1] AS p50_bytes_of_results, q[2] AS p95_bytes_of_results, max_bytes_of_results, results_over_50000_bytes
FROM (SELECT count(*) AS results,
             quantile_cont(output_bytes, [0.50, 0.95]) AS q, -- one sort for both
             max(output_bytes) AS max_bytes_of_results,
             count(*) FILTER (WHERE output_bytes > 50000) AS results_over_50000_bytes
      FROM tool_success);
