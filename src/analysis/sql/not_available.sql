-- Not available in source: an imported trace carries NULL where its source
-- does not record a value (an importer never invents one; see the contract's
-- `unknown()` fields in src/events/schemas.ts). Each report above leaves such
-- events out of the figure that needs the value; this lists, per figure, how
-- many events that was, so a figure over fewer events is never mistaken for
-- one over all of them. Native faultline traces always have these values.
-- section: not_available | Not available in source (events left out of a figure because their source does not record it) | first 50
-- One scan per event view (MATERIALIZED: each is read once however many figures it feeds).
WITH successes AS MATERIALIZED (SELECT count(*) AS n, count(*) - count(duration_ms) AS duration_ms, count(*) - count(output_bytes) AS output_bytes FROM tool_success),
failures AS MATERIALIZED (SELECT count(*) AS n, count(*) - count(duration_ms) AS duration_ms FROM tool_failure),
ends AS MATERIALIZED (
  SELECT count(*) AS n, count(*) - count(outcome) AS outcome, count(*) - count(stop) AS stop,
         count(*) - count(input_tokens) AS input_tokens, count(*) - count(output_tokens) AS output_tokens,
         count(*) - count(cache_read_tokens) AS cache_read_tokens, count(*) - count(cache_write_tokens) AS cache_write_tokens,
         count(*) - count(duration_ms) AS duration_ms
  FROM session_end),
starts AS MATERIALIZED (SELECT count(*) AS n, count(*) - count(defenses_armed) AS defenses_armed FROM session_start),
responses AS MATERIALIZED (SELECT count(*) AS n, count(*) - count(stop_class) AS stop_class, count(*) - count(duration_ms) AS duration_ms FROM model_response),
requests AS MATERIALIZED (SELECT count(*) AS n, count(*) - count(prefix_hash) AS prefix_hash FROM model_request),
errors AS MATERIALIZED (SELECT count(*) AS n, count(*) - count(will_retry) AS will_retry FROM model_error),
gaps AS (
  SELECT 1 AS ord, 'tool latency' AS figure, 'tool_success.duration_ms' AS field, duration_ms AS events_not_available, n AS events FROM successes
  UNION ALL SELECT 2, 'tool latency', 'tool_failure.duration_ms', duration_ms, n FROM failures
  UNION ALL SELECT 3, 'pass rate, session outcomes', 'session_end.outcome', outcome, n FROM ends
  UNION ALL SELECT 4, 'turn-stop attribution', 'session_end.stop', stop, n FROM ends
  UNION ALL SELECT 5, 'session token totals', 'session_end.input_tokens', input_tokens, n FROM ends
  UNION ALL SELECT 6, 'session token totals', 'session_end.output_tokens', output_tokens, n FROM ends
  UNION ALL SELECT 7, 'cache-read share', 'session_end.cache_read_tokens', cache_read_tokens, n FROM ends
  UNION ALL SELECT 8, 'session duration', 'session_end.duration_ms', duration_ms, n FROM ends
  UNION ALL SELECT 9, 'defense triage (armed sessions)', 'session_start.defenses_armed', defenses_armed, n FROM starts
  UNION ALL SELECT 10, 'stop classes', 'model_response.stop_class', stop_class, n FROM responses
  UNION ALL SELECT 11, 'model response p95', 'model_response.duration_ms', duration_ms, n FROM responses
  UNION ALL SELECT 12, 'provider error retries', 'model_error.will_retry', will_retry, n FROM errors
  -- Figures the reports print as — when their values are missing: listed so a blank is never read as a zero.
  -- (ttft_ms is not: a native non-streamed response has none either.)
  UNION ALL SELECT 13, 'session token totals', 'session_end.cache_write_tokens', cache_write_tokens, n FROM ends
  UNION ALL SELECT 15, 'tool result sizes', 'tool_success.output_bytes', output_bytes, n FROM successes
  UNION ALL SELECT 16, 'prompt-cache stability (prefix hits)', 'model_request.prefix_hash', prefix_hash, n FROM requests)
SELECT figure, field, events_not_available, events,
       events_not_available / events AS share_of_events
FROM gaps
WHERE events_not_available > 0
ORDER BY ord;
