-- What the tool layer did besides succeed or fail (docs/harness-rules.md#telemetry-discipline): per tool,
-- truncations, spills and the size of what it returned; the batches of each
-- turn and how many calls ran in parallel; tool_search and what it loaded;
-- and each turn's whole time.

-- section: tool_output | Tool output per tool (over tool_success events: truncated, spilled, output_bytes)
-- truncated/spilled NULL and output_bytes NULL (not available in source) are left out of their own figure only.
-- One pass: one quantile_disc over a list of fractions sorts each tool's sizes once.
SELECT tool, results, truncated, spilled,
       truncated / nullif(truncated_known, 0) AS truncated_rate_of_results,
       spilled / nullif(spilled_known, 0) AS spilled_rate_of_results,
       q[1] AS p50_output_bytes_of_results,
       q[2] AS p95_output_bytes_of_results,
       max_output_bytes_of_results
FROM (SELECT tool,
             count(*) AS results,
             count(*) FILTER (WHERE truncated) AS truncated,
             count(*) FILTER (WHERE spilled) AS spilled,
             count(truncated) AS truncated_known,
             count(spilled) AS spilled_known,
             quantile_disc(output_bytes, [0.50, 0.95]) AS q,
             max(output_bytes) AS max_output_bytes_of_results
      FROM tool_success GROUP BY tool)
ORDER BY results DESC, tool;

-- table: turn_batches
-- One row per batch of tool calls (run, session, turn, batch): the calls the scheduler ran together.
-- Calls whose source records no batch form one row per turn with batch NULL, counted apart.
SELECT run_id, session_id, turn, batch, count(*) AS calls
FROM tool_call
GROUP BY run_id, session_id, turn, batch;

-- section: tool_batches | Tool batches and parallelism (per turn with tool calls; parallelism = calls in one batch) | summary
SELECT t.turns AS turns_with_tool_calls,
       b.batches,
       b.calls_in_batches,
       b.calls_batch_not_available_in_source,
       t.mean_batches_per_turn,
       t.max_batches_per_turn,
       b.mean_calls_per_batch,
       b.max_calls_per_batch,
       b.parallel_batches,
       t.turns_with_parallel_batch,
       b.parallel_share_of_calls_in_batches
FROM (SELECT count(*) FILTER (WHERE batch IS NOT NULL) AS batches,
             coalesce(sum(calls) FILTER (WHERE batch IS NOT NULL), 0)::BIGINT AS calls_in_batches,
             coalesce(sum(calls) FILTER (WHERE batch IS NULL), 0)::BIGINT AS calls_batch_not_available_in_source,
             avg(calls) FILTER (WHERE batch IS NOT NULL) AS mean_calls_per_batch,
             max(calls) FILTER (WHERE batch IS NOT NULL) AS max_calls_per_batch,
             count(*) FILTER (WHERE batch IS NOT NULL AND calls > 1) AS parallel_batches,
             sum(calls) FILTER (WHERE batch IS NOT NULL AND calls > 1) / nullif(sum(calls) FILTER (WHERE batch IS NOT NULL), 0) AS parallel_share_of_calls_in_batches
      FROM turn_batches) b,
     (SELECT count(*) AS turns, avg(batches) AS mean_batches_per_turn, max(batches) AS max_batches_per_turn,
             count(*) FILTER (WHERE widest > 1) AS turns_with_parallel_batch
      FROM (SELECT count(*) AS batches, max(calls) AS widest FROM turn_batches WHERE batch IS NOT NULL GROUP BY run_id, session_id, turn)) t;

-- table: turn_spans
-- Each turn's whole time: from its model_request to the last event of the turn (the last tool result,
-- or the model's answer when it called no tool), on the one clock of the run's sink. NULL ts: no time.
-- One scan and one grouping over the five events (the pieces are per event, so only theirs are read).
SELECT run_id, session_id, turn, start_ts, end_ts, end_ts - start_ts AS turn_ms
FROM (SELECT run_id, session_id, turn,
             min(ts) FILTER (WHERE event = 'model_request') AS start_ts,
             max(ts) FILTER (WHERE event <> 'model_request') AS end_ts,
             count(*) FILTER (WHERE event = 'model_request') AS requests,
             count(*) FILTER (WHERE event <> 'model_request') AS ends
      FROM events
      WHERE event IN ('model_request', 'model_response', 'model_error', 'tool_success', 'tool_failure')
      GROUP BY run_id, session_id, turn)
WHERE requests > 0 AND ends > 0;

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
-- Only the requests of sessions that searched are windowed (usually none).
WITH searches AS (
  SELECT run_id, session_id, turn, count(*) AS searches FROM tool_call WHERE tool = 'tool_search' GROUP BY run_id, session_id, turn),
req AS (
  SELECT run_id, session_id, turn, tools_count, request_bytes,
         lead(tools_count) OVER w AS next_tools_count, lead(turn) OVER w AS next_turn, lead(request_bytes) OVER w AS next_request_bytes
  FROM model_request SEMI JOIN (SELECT DISTINCT run_id, session_id FROM searches) USING (run_id, session_id)
  WINDOW w AS (PARTITION BY run_id, session_id ORDER BY turn, seq))
SELECT s.run_id, s.session_id, s.turn, s.searches, r.next_turn, r.request_bytes, r.next_request_bytes,
       greatest(coalesce(r.next_tools_count - r.tools_count, 0), 0) AS loaded
FROM searches s LEFT JOIN (SELECT * FROM req QUALIFY row_number() OVER (PARTITION BY run_id, session_id, turn ORDER BY tools_count DESC) = 1) r USING (run_id, session_id, turn);

-- table: first_loads
-- Each session's first turn whose search loaded a tool, with its deferred tools (a table: exactly sized,
-- so the join below builds on it; usually empty).
SELECT f.run_id, f.session_id, f.turn, s.deferred_tools
FROM (SELECT run_id, session_id, min(turn) AS turn FROM search_turns WHERE loaded > 0 GROUP BY run_id, session_id) f
JOIN session_start s USING (run_id, session_id);

-- section: tool_search | tool_search: searches, turns whose search loaded a tool, deferred tools called after loading | summary
-- A deferred tool (session_start.deferred_tools) "activated then called": called in a turn after a turn whose search loaded one.
WITH called AS (
  SELECT DISTINCT c.run_id, c.session_id, c.tool
  FROM tool_call c JOIN first_loads f USING (run_id, session_id)
  WHERE c.turn > f.turn AND list_contains(f.deferred_tools, c.tool))
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
