-- Failure kinds (docs/harness-rules.md#failure-kinds): pre-execution kinds (the tool body never
-- ran) apart from execution kinds, and `exception` (our bug) never merged with
-- `tool_error` (the tool ran and reported an error, often correct behaviour).
-- The phase of each kind comes from labels.ts via failure_kind_phase.
-- section: failure_kinds | Failure kinds per tool (rate_of_calls = failures / tool_call count of that tool)
-- flag: failure_kind = 'exception' warn when failures > 0
WITH calls AS (SELECT tool, count(*) AS n FROM tool_call GROUP BY tool)
SELECT f.tool, p.phase, f.failure_kind,
       count(*) AS failures,
       count(*) / nullif(any_value(calls.n), 0) AS rate_of_calls
FROM tool_failure f
JOIN failure_kind_phase p USING (failure_kind)
LEFT JOIN calls USING (tool)
GROUP BY f.tool, p.phase, f.failure_kind
ORDER BY f.tool, p.phase DESC, failures DESC, f.failure_kind;

-- section: failure_kind_totals | Failure kinds, all tools (every kind listed, zero included)
-- flag: failure_kind = 'exception' warn when failures > 0
SELECT p.phase, p.failure_kind,
       count(f.failure_kind) AS failures,
       count(f.failure_kind) / nullif((SELECT count(*) FROM tool_call), 0) AS rate_of_all_calls
FROM failure_kind_phase p
LEFT JOIN tool_failure f USING (failure_kind)
GROUP BY p.phase, p.failure_kind
ORDER BY p.phase DESC, failures DESC, p.failure_kind;
