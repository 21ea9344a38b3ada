-- What the tool layer did besides succeed or fail (seed §14.6): per tool,
-- truncations, spills and the size of what it returned; the batches of each
-- turn and how many calls ran in parallel; tool_search and what it loaded;
-- and each turn's whole time.

-- section: tool_output | Tool output per tool (over tool_success events: truncated, spilled, output_bytes)
-- truncated/spilled NULL and output_bytes NULL (not available in source) are left out of their own figure only.
SELECT tool,
       count(*) AS results,
       count(*) FILTER (WHERE truncated) AS truncated,
       count(*) FILTER (WHERE spilled) AS spilled,
       count(*) FILTER (WHERE truncated) / nullif(count(truncated), 0) AS truncated_rate_of_results,
       count(*) FILTER (WHERE spilled) / nullif(count(spilled), 0) AS spilled_rate_of_results,
       q[1] AS p50_output_bytes_of_results,
       q[2] AS p95_output_bytes_of_results,
       max_output_bytes_of_results
FROM (SELECT tool, truncated, spilled, output_bytes FROM tool_success)
JOIN (SELECT tool, quantile_disc(output_bytes, [0.50, 0.95]) AS q, max(output_bytes) AS max_output_bytes_of_results FROM tool_success GROUP BY tool) USING (tool)
GROUP BY tool, q, max_output_bytes_of_results
ORDER BY results DESC, tool;

-- table: turn_batches
-- One row per batch of tool calls (run, session, turn, batch): the calls the scheduler ran together.
SELECT run_id, session_id, turn, batch, count(*) AS calls
FROM tool_call WHERE batch IS NOT NULL
GROUP BY run_id, session_id, turn, batch;

-- section: tool_batches | Tool batches and parallelism (per turn with tool calls; parallelism = calls in one batch) | summary
WITH per_turn AS (
  SELECT run_id, session_id, turn, count(*) AS batches, max(calls) AS widest, sum(calls) AS calls
  FROM turn_batches GROUP BY run_id, session_id, turn)
SELECT (SELECT count(*) FROM per_turn) AS turns_with_tool_calls,
       (SELECT count(*) FROM turn_batches) AS batches,
       (SELECT sum(calls) FROM turn_batches)::BIGINT AS calls_in_batches,
       (SELECT count(*) FROM tool_call WHERE batch IS NULL) AS calls_batch_not_available_in_source,
       (SELECT avg(batches) FROM per_turn) AS mean_batches_per_turn,
       (SELECT max(batches) FROM per_turn) AS max_batches_per_turn,
       (SELECT avg(calls) FROM turn_batches) AS mean_calls_per_batch,
       (SELECT max(calls) FROM turn_batches) AS max_calls_per_batch,
       (SELECT count(*) FILTER (WHERE calls > 1) FROM turn_batches) AS parallel_batches,
       (SELECT count(*) FILTER (WHERE widest > 1) FROM per_turn) AS turns_with_parallel_batch,
       (SELECT sum(calls) FILTER (WHERE calls > 1) / nullif(sum(calls), 0) FROM turn_batches) AS parallel_share_of_calls_in_batches;

-- table: turn_spans
-- Each turn's whole time: from its model_request to the last event of the turn (the last tool result,
-- or the model's answer when it called no tool), on the one clock of the run's sink. NULL ts: no time.
WITH ends AS (
  SELECT run_id, session_id, turn, max(ts) AS end_ts FROM (
    SELECT run_id, session_id, turn, ts FROM model_response
    UNION ALL SELECT run_id, session_id, turn, ts FROM tool_success
    UNION ALL SELECT run_id, session_id, turn, ts FROM tool_failure
    UNION ALL SELECT run_id, session_id, turn, ts FROM model_error)
  GROUP BY run_id, session_id, turn)
SELECT r.run_id, r.session_id, r.turn, min(r.ts) AS start_ts, any_value(e.end_ts) AS end_ts,
       any_value(e.end_ts) - min(r.ts) AS turn_ms
FROM model_request r JOIN ends e USING (run_id, session_id, turn)
GROUP BY r.run_id, r.session_id, r.turn;

-- section: turn_time | Whole-turn time (model_request to the turn's last result; over turns with both times) | summary
SELECT count(*) AS turns,
       count(turn_ms) AS timed_turns,
       quantile_cont(turn_ms, 0.50) AS p50_ms_of_timed_turns,
       quantile_cont(turn_ms, 0.95) AS p95_ms_of_timed_turns,
       max(turn_ms) AS max_ms_of_timed_turns
FROM turn_spans;

-- table: search_turns
-- Each turn that called tool_search, and whether the session's next request carried more tool definitions
-- than this turn's (the search loaded a deferred tool) and how many more.
WITH req AS (
  SELECT run_id, session_id, turn, tools_count, request_bytes,
         lead(tools_count) OVER w AS next_tools_count, lead(turn) OVER w AS next_turn, lead(request_bytes) OVER w AS next_request_bytes
  FROM model_request
  WINDOW w AS (PARTITION BY run_id, session_id ORDER BY turn, seq)),
searches AS (
  SELECT run_id, session_id, turn, count(*) AS searches FROM tool_call WHERE tool = 'tool_search' GROUP BY run_id, session_id, turn)
SELECT s.run_id, s.session_id, s.turn, s.searches, r.next_turn, r.request_bytes, r.next_request_bytes,
       greatest(coalesce(r.next_tools_count - r.tools_count, 0), 0) AS loaded
FROM searches s LEFT JOIN (SELECT * FROM req QUALIFY row_number() OVER (PARTITION BY run_id, session_id, turn ORDER BY tools_count DESC) = 1) r USING (run_id, session_id, turn);

-- section: tool_search | tool_search: searches, turns whose search loaded a tool, deferred tools called after loading | summary
-- A deferred tool (session_start.deferred_tools) "activated then called": called in a turn after a turn whose search loaded one.
WITH first_load AS (
  SELECT run_id, session_id, min(turn) AS turn FROM search_turns WHERE loaded > 0 GROUP BY run_id, session_id),
called AS (
  SELECT DISTINCT c.run_id, c.session_id, c.tool
  FROM tool_call c JOIN first_load f USING (run_id, session_id)
  JOIN session_start s USING (run_id, session_id)
  WHERE c.turn > f.turn AND list_contains(s.deferred_tools, c.tool))
SELECT (SELECT coalesce(sum(searches), 0) FROM search_turns)::BIGINT AS searches,
       (SELECT count(*) FROM search_turns) AS search_turns,
       (SELECT count(*) FILTER (WHERE loaded > 0) FROM search_turns) AS search_turns_that_loaded,
       (SELECT count(*) FILTER (WHERE loaded > 0) / nullif(count(*), 0) FROM search_turns) AS hit_rate_of_search_turns,
       (SELECT coalesce(sum(loaded), 0) FROM search_turns)::BIGINT AS tools_loaded,
       (SELECT count(*) FROM called) AS loaded_tools_called,
       (SELECT count(*) FROM called) / nullif((SELECT sum(loaded) FROM search_turns), 0) AS called_rate_of_loaded;

-- section: deferred_loading | Deferred loading: definition bytes saved on every request vs the turns tool_search spent (net = saved - spent) | summary
-- saved = sum over model requests of deferred_tools_bytes (the unloaded definitions each request left out:
-- their bytes x the turns they stayed unloaded); spent = sum over turns that called tool_search of the bytes
-- of the request that turn added (the next request of the session, or its own when it was the last).
-- NULL (not available in source) when no request records deferred_tools_bytes.
WITH saved AS (SELECT count(deferred_tools_bytes) AS measured, sum(deferred_tools_bytes) AS bytes FROM model_request),
spent AS (SELECT count(*) AS turns, coalesce(sum(searches), 0) AS searches, coalesce(sum(coalesce(next_request_bytes, request_bytes)), 0) AS bytes FROM search_turns)
SELECT saved.measured AS requests_measured,
       CASE WHEN saved.measured > 0 THEN saved.bytes END::BIGINT AS definition_bytes_saved,
       spent.searches::BIGINT AS searches,
       spent.turns AS search_turns,
       spent.bytes::BIGINT AS request_bytes_spent_on_search_turns,
       CASE WHEN saved.measured > 0 THEN saved.bytes - spent.bytes END::BIGINT AS net_benefit_bytes
FROM saved, spent;
