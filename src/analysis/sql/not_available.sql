-- Not available in source: an imported trace carries NULL where its source
-- does not record a value (an importer never invents one; see the contract's
-- `unknown()` fields in src/events/schemas.ts). Each report above leaves such
-- events out of the figure that needs the value; this lists, per figure, how
-- many events that was, so a figure over fewer events is never mistaken for
-- one over all of them. Native faultline traces always have these values.
-- section: not_available | Not available in source (events left out of a figure because their source does not record it) | first 50
WITH gaps AS (
  SELECT 1 AS ord, 'tool latency' AS figure, 'tool_success.duration_ms' AS field,
         count(*) FILTER (WHERE duration_ms IS NULL) AS events_not_available, count(*) AS events FROM tool_success
  UNION ALL SELECT 2, 'tool latency', 'tool_failure.duration_ms', count(*) FILTER (WHERE duration_ms IS NULL), count(*) FROM tool_failure
  UNION ALL SELECT 3, 'pass rate, session outcomes', 'session_end.outcome', count(*) FILTER (WHERE outcome IS NULL), count(*) FROM session_end
  UNION ALL SELECT 4, 'turn-stop attribution', 'session_end.stop', count(*) FILTER (WHERE stop IS NULL), count(*) FROM session_end
  UNION ALL SELECT 5, 'session token totals', 'session_end.input_tokens', count(*) FILTER (WHERE input_tokens IS NULL), count(*) FROM session_end
  UNION ALL SELECT 6, 'session token totals', 'session_end.output_tokens', count(*) FILTER (WHERE output_tokens IS NULL), count(*) FROM session_end
  UNION ALL SELECT 7, 'cache-read share', 'session_end.cache_read_tokens', count(*) FILTER (WHERE cache_read_tokens IS NULL), count(*) FROM session_end
  UNION ALL SELECT 8, 'session duration', 'session_end.duration_ms', count(*) FILTER (WHERE duration_ms IS NULL), count(*) FROM session_end
  UNION ALL SELECT 9, 'defense triage (armed sessions)', 'session_start.defenses_armed', count(*) FILTER (WHERE defenses_armed IS NULL), count(*) FROM session_start
  UNION ALL SELECT 10, 'stop classes', 'model_response.stop_class', count(*) FILTER (WHERE stop_class IS NULL), count(*) FROM model_response
  UNION ALL SELECT 11, 'model response p95', 'model_response.duration_ms', count(*) FILTER (WHERE duration_ms IS NULL), count(*) FROM model_response
  UNION ALL SELECT 12, 'provider error retries', 'model_error.will_retry', count(*) FILTER (WHERE will_retry IS NULL), count(*) FROM model_error)
SELECT figure, field, events_not_available, events,
       events_not_available / events AS share_of_events
FROM gaps
WHERE events_not_available > 0
ORDER BY ord;
