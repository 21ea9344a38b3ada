-- Tool funnel (docs/harness-rules.md#tool-funnel): every tool_call ends in exactly one tool_success or
-- tool_failure, so lost = calls - successes - failures must be 0. Rates name
-- their denominator (docs/harness-rules.md#denominator-shift): executed = successes + execution-phase failures.
-- section: tool_funnel | Tool funnel per tool (lost = calls - successes - failures; must be 0)
-- flag: lost != 0 bad
WITH calls AS (SELECT tool, count(*) AS n FROM tool_call GROUP BY tool),
succ AS (SELECT tool, count(*) AS n FROM tool_success GROUP BY tool),
fail AS (
  SELECT f.tool, count(*) AS n,
         count(*) FILTER (WHERE p.phase = 'pre_execution') AS pre,
         count(*) FILTER (WHERE p.phase = 'execution') AS exec
  FROM tool_failure f JOIN failure_kind_phase p USING (failure_kind) GROUP BY f.tool),
per_tool AS (
  SELECT t.tool,
         coalesce(calls.n, 0) AS calls, coalesce(succ.n, 0) AS successes, coalesce(fail.n, 0) AS failures,
         coalesce(fail.pre, 0) AS pre, coalesce(fail.exec, 0) AS exec
  FROM (SELECT tool FROM calls UNION SELECT tool FROM succ UNION SELECT tool FROM fail) t
  LEFT JOIN calls USING (tool) LEFT JOIN succ USING (tool) LEFT JOIN fail USING (tool)),
with_total AS (
  SELECT 0 AS ord, * FROM per_tool
  UNION ALL
  -- '(all tools)' cannot collide with a tool label (labels never contain parentheses or spaces).
  SELECT 1, '(all tools)', sum(calls), sum(successes), sum(failures), sum(pre), sum(exec) FROM per_tool)
SELECT tool,
       calls::BIGINT AS calls,
       successes::BIGINT AS successes,
       failures::BIGINT AS failures,
       pre::BIGINT AS failures_pre_execution,
       exec::BIGINT AS failures_execution,
       (calls - successes - failures)::BIGINT AS lost,
       (successes + exec)::BIGINT AS executed,
       successes / nullif(successes + exec, 0) AS success_rate_of_executed,
       successes / nullif(calls, 0) AS success_rate_of_calls
FROM with_total
WHERE calls + successes + failures > 0
ORDER BY ord, calls DESC, tool;
