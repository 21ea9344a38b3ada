-- Tool funnel (docs/harness-rules.md#tool-funnel): every tool_call ends in exactly one tool_success or
-- tool_failure, so lost = calls - successes - failures - cut_short must be 0.
-- A call still in flight when its run was killed (its session has a
-- session_start and no session_end: cut short) has no result by no fault of
-- the settlement path: it is counted as cut_short, never as lost.
-- Rates name their denominator (docs/harness-rules.md#denominator-shift): executed = successes + execution-phase
-- failures. `tool_error` (the tool ran and reported an error, often correct
-- behaviour) and `exception` (our bug) are opposite meanings (docs/harness-rules.md#failure-kinds): each has
-- its own rate, and no figure mixes them (a "success rate of executed" would).

-- table: cut_sessions
SELECT run_id, session_id FROM session_start ANTI JOIN session_end USING (run_id, session_id);

-- section: tool_funnel | Tool funnel per tool (lost = calls - successes - failures - cut_short; must be 0)
-- flag: lost != 0 bad
-- budget: 36
WITH calls AS (SELECT tool, count(*) AS n FROM tool_call GROUP BY tool),
succ AS (SELECT tool, count(*) AS n FROM tool_success GROUP BY tool),
fail AS (
  SELECT f.tool, count(*) AS n,
         count(*) FILTER (WHERE p.phase = 'pre_execution') AS pre,
         count(*) FILTER (WHERE p.phase = 'execution') AS exec,
         count(*) FILTER (WHERE f.failure_kind = 'tool_error') AS tool_errors,
         count(*) FILTER (WHERE f.failure_kind = 'exception') AS exceptions
  FROM tool_failure f JOIN failure_kind_phase p USING (failure_kind) GROUP BY f.tool),
-- Calls of cut-short sessions with no result in their session (cut_sessions is small: usually empty).
cut AS (
  SELECT c.tool, count(*) AS n
  FROM (SELECT run_id, session_id, tool_use_id, tool FROM tool_call SEMI JOIN cut_sessions USING (run_id, session_id)) c
  ANTI JOIN (SELECT run_id, session_id, tool_use_id FROM tool_success SEMI JOIN cut_sessions USING (run_id, session_id)
             UNION ALL
             SELECT run_id, session_id, tool_use_id FROM tool_failure SEMI JOIN cut_sessions USING (run_id, session_id)) r
  USING (run_id, session_id, tool_use_id)
  GROUP BY c.tool),
per_tool AS (
  SELECT t.tool,
         coalesce(calls.n, 0) AS calls, coalesce(succ.n, 0) AS successes, coalesce(fail.n, 0) AS failures,
         coalesce(fail.pre, 0) AS pre, coalesce(fail.exec, 0) AS exec,
         coalesce(fail.tool_errors, 0) AS tool_errors, coalesce(fail.exceptions, 0) AS exceptions,
         coalesce(cut.n, 0) AS cut_short
  FROM (SELECT tool FROM calls UNION SELECT tool FROM succ UNION SELECT tool FROM fail) t
  LEFT JOIN calls USING (tool) LEFT JOIN succ USING (tool) LEFT JOIN fail USING (tool) LEFT JOIN cut USING (tool)),
with_total AS (
  SELECT 0 AS ord, * FROM per_tool
  UNION ALL
  -- '(all tools)' cannot collide with a tool label (labels never contain parentheses or spaces).
  SELECT 1, '(all tools)', sum(calls), sum(successes), sum(failures), sum(pre), sum(exec), sum(tool_errors), sum(exceptions), sum(cut_short) FROM per_tool)
SELECT tool,
       calls::BIGINT AS calls,
       successes::BIGINT AS successes,
       failures::BIGINT AS failures,
       pre::BIGINT AS failures_pre_execution,
       exec::BIGINT AS failures_execution,
       cut_short::BIGINT AS cut_short,
       (calls - successes - failures - cut_short)::BIGINT AS lost,
       (successes + exec)::BIGINT AS executed,
       exceptions::BIGINT AS exceptions,
       tool_errors::BIGINT AS tool_errors,
       exceptions / nullif(successes + exec, 0) AS exception_rate_of_executed,
       tool_errors / nullif(successes + exec, 0) AS tool_error_rate_of_executed,
       successes / nullif(calls, 0) AS success_rate_of_calls
FROM with_total
WHERE calls + successes + failures > 0
ORDER BY ord, calls DESC, tool;
