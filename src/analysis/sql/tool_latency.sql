-- Per-tool latency (docs/harness-rules.md#per-call-durations): each call's own duration, exact quantiles
-- (quantile_cont), over executed calls only: successes plus execution-phase
-- failures. Pre-execution failures never ran the tool, so their 0 ms would
-- drag the percentiles down. Only durations the executing harness timed
-- itself (duration_source absent or 'measured') are per-tool timings; the
-- lab's turn-scoped and an importer's timestamp-derived durations are not,
-- and a NULL duration (an imported trace whose source records none) is no
-- timing at all: both are counted apart in the last section.
-- A call's duration here is the tool's own execution time (execution_ms) when
-- the trace records it, so a slow PreToolUse hook or a permission prompt does
-- not read as a slow tool; duration_ms (hooks and permission included) otherwise.
-- section: tool_latency | Latency per tool, executed calls only (pre-execution failures excluded)
WITH executed AS (
  SELECT tool, coalesce(execution_ms, duration_ms) AS duration_ms FROM tool_success WHERE coalesce(duration_source, 'measured') = 'measured' AND duration_ms IS NOT NULL
  UNION ALL
  SELECT f.tool, coalesce(f.execution_ms, f.duration_ms) FROM tool_failure f JOIN failure_kind_phase p USING (failure_kind)
  WHERE p.phase = 'execution' AND coalesce(f.duration_source, 'measured') = 'measured' AND f.duration_ms IS NOT NULL)
-- One quantile_cont over a list of fractions sorts each tool's durations once, not three times.
SELECT tool, executed_calls, q[1] AS p50_ms_of_executed, q[2] AS p95_ms_of_executed, q[3] AS p99_ms_of_executed, max_ms_of_executed
FROM (SELECT tool, count(*) AS executed_calls, quantile_cont(duration_ms, [0.50, 0.95, 0.99]) AS q, max(duration_ms) AS max_ms_of_executed
      FROM executed GROUP BY tool)
ORDER BY p95_ms_of_executed DESC, tool;

-- section: latency_histogram | Latency histogram per tool, executed calls (4 log-spaced bins per decade) | chart
WITH executed AS (
  SELECT tool, coalesce(execution_ms, duration_ms) AS duration_ms FROM tool_success WHERE coalesce(duration_source, 'measured') = 'measured' AND duration_ms IS NOT NULL
  UNION ALL
  SELECT f.tool, coalesce(f.execution_ms, f.duration_ms) FROM tool_failure f JOIN failure_kind_phase p USING (failure_kind)
  WHERE p.phase = 'execution' AND coalesce(f.duration_source, 'measured') = 'measured' AND f.duration_ms IS NOT NULL),
binned AS (SELECT tool, floor(log10(greatest(duration_ms, 0.1)) * 4) AS b FROM executed)
SELECT tool, power(10, b / 4) AS bin_from_ms, power(10, (b + 1) / 4) AS bin_to_ms, count(*) AS executed_calls
FROM binned
GROUP BY tool, b
ORDER BY tool, b;

-- section: tool_duration_sources | Executed calls not timed per call (from_timestamps: an imported trace's clock, an upper bound; turn_scoped: seen from the wire; not_available_in_source: no duration) | first 50
WITH executed AS (
  SELECT tool, coalesce(execution_ms, duration_ms) AS duration_ms, coalesce(duration_source, 'measured') AS timing FROM tool_success
  UNION ALL
  SELECT f.tool, coalesce(f.execution_ms, f.duration_ms), coalesce(f.duration_source, 'measured') FROM tool_failure f
  JOIN failure_kind_phase p USING (failure_kind) WHERE p.phase = 'execution')
SELECT tool,
       count(*) AS executed_calls,
       count(*) FILTER (WHERE timing = 'measured' AND duration_ms IS NOT NULL) AS measured,
       count(*) FILTER (WHERE timing = 'timestamps' AND duration_ms IS NOT NULL) AS from_timestamps,
       quantile_cont(duration_ms, 0.50) FILTER (WHERE timing = 'timestamps') AS p50_ms_from_timestamps,
       quantile_cont(duration_ms, 0.95) FILTER (WHERE timing = 'timestamps') AS p95_ms_from_timestamps,
       count(*) FILTER (WHERE timing = 'turn' AND duration_ms IS NOT NULL) AS turn_scoped,
       count(*) FILTER (WHERE duration_ms IS NULL) AS not_available_in_source
FROM executed
GROUP BY tool
HAVING count(*) FILTER (WHERE timing <> 'measured' OR duration_ms IS NULL) > 0
ORDER BY executed_calls DESC, tool;
