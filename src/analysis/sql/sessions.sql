-- Sessions (docs/harness-rules.md#termination, docs/harness-rules.md#denominator-shift): outcomes, turn-stop attribution, turns, tokens.
-- cache_read_share_of_prompt_tokens = cache reads / (input + cache reads +
-- cache writes), i.e. input_tokens is taken to exclude cached tokens.
-- An imported session whose source records no outcome, stop or token counts
-- has NULL there: a rate or total that depends on an unknown value is NULL
-- (not available in source), never a guess; the rates over sessions with an
-- outcome still stand. A count or total over no sessions is 0.
-- section: session_summary | Sessions (rates over ended sessions) | summary
-- flag: sessions_without_end > 0 warn
SELECT (SELECT count(*) FROM session_start) AS sessions_started,
       count(*) AS sessions_ended,
       (SELECT count(*) FROM session_start s ANTI JOIN session_end e USING (run_id, session_id)) AS sessions_without_end,
       count(*) FILTER (WHERE outcome = 'passed') AS passed,
       CASE WHEN count(outcome) = count(*) THEN count(*) FILTER (WHERE outcome = 'passed') / nullif(count(*), 0) END AS pass_rate_of_ended_sessions,
       count(*) - count(outcome) AS sessions_outcome_not_available_in_source,
       count(*) FILTER (WHERE outcome = 'passed') / nullif(count(outcome), 0) AS pass_rate_of_sessions_with_outcome,
       coalesce(sum(turns), 0)::BIGINT AS turns,
       quantile_cont(turns, 0.5) AS p50_turns_per_session,
       max(turns) AS max_turns_per_session,
       CASE WHEN count(input_tokens) = count(*) THEN coalesce(sum(input_tokens), 0)::BIGINT END AS input_tokens,
       CASE WHEN count(output_tokens) = count(*) THEN coalesce(sum(output_tokens), 0)::BIGINT END AS output_tokens,
       CASE WHEN count(cache_read_tokens) = count(*) THEN coalesce(sum(cache_read_tokens), 0)::BIGINT END AS cache_read_tokens,
       CASE WHEN count(cache_write_tokens) = count(*) THEN coalesce(sum(cache_write_tokens), 0)::BIGINT END AS cache_write_tokens,
       CASE WHEN count(input_tokens + cache_read_tokens + cache_write_tokens) = count(*)
            THEN sum(cache_read_tokens) / nullif(sum(input_tokens + cache_read_tokens + cache_write_tokens), 0) END AS cache_read_share_of_prompt_tokens,
       quantile_cont(duration_ms, 0.95) AS p95_ms_per_session
FROM session_end;

-- section: session_outcomes | Session outcomes (share of ended sessions)
SELECT o.outcome,
       count(s.outcome) AS sessions,
       count(s.outcome) / nullif((SELECT count(*) FROM session_end), 0) AS share_of_ended_sessions
FROM known_outcome o LEFT JOIN session_end s USING (outcome)
GROUP BY o.outcome
UNION ALL
-- '(...)' cannot collide with an outcome label; listed only when some session has no outcome.
SELECT '(not available in source)', count(*), count(*) / nullif((SELECT count(*) FROM session_end), 0)
FROM session_end WHERE outcome IS NULL HAVING count(*) > 0
ORDER BY sessions DESC, outcome;

-- section: session_stops | Turn-stop attribution (why the loop ended; share of ended sessions)
SELECT coalesce(stop, '(not available in source)') AS stop,
       count(*) AS sessions,
       count(*) / sum(count(*)) OVER () AS share_of_ended_sessions
FROM session_end
GROUP BY stop
ORDER BY sessions DESC, stop;

-- section: task_outcomes | Tasks (sessions per task id; failing tasks first) | data
-- flag: sessions_cut_short > 0 warn
-- One row per task id over every run read (a task id is unique within a run;
-- its repeats and its sessions in merged runs or shards are its group). A
-- task passes when it has an ended session with an outcome and every such
-- session passed (pass^k over its repeats); not_passed counts failed, error
-- and aborted sessions. Sessions cut short and sessions whose source records
-- no outcome are counted apart, in neither. The first failed expectation (by
-- session, then check order) says why the task failed; a session that failed
-- without one (error, aborted) is named by its outcome and stop instead
-- ('' where there is none).
WITH ended AS (
  SELECT task_id,
         count(*) AS sessions_ended,
         count(*) FILTER (WHERE outcome = 'passed') AS passed,
         count(*) FILTER (WHERE outcome <> 'passed') AS not_passed,
         count(*) - count(outcome) AS outcome_not_available_in_source,
         string_agg(DISTINCT outcome, ', ' ORDER BY outcome) FILTER (WHERE outcome <> 'passed') AS not_passed_outcomes,
         arg_min(outcome || coalesce(' (stop: ' || stop || ')', ''), {'run_id': run_id, 'session_id': session_id}) FILTER (WHERE outcome <> 'passed') AS first_not_passed
  FROM session_end
  GROUP BY task_id
),
cut AS (
  SELECT s.task_id, count(*) AS sessions_cut_short
  FROM session_start s ANTI JOIN session_end e USING (run_id, session_id)
  GROUP BY s.task_id
),
failed AS (
  SELECT task_id,
         count(*) AS failed_expectations,
         arg_min(id, {'run_id': run_id, 'session_id': session_id, 'file_id': file_id, 'seq': seq}) AS first_failed_expectation,
         arg_min(detail, {'run_id': run_id, 'session_id': session_id, 'file_id': file_id, 'seq': seq}) AS first_failed_detail
  FROM expectation
  WHERE NOT ok
  GROUP BY task_id
)
SELECT task_id,
       coalesce(e.sessions_ended, 0) AS sessions_ended,
       coalesce(e.passed, 0) AS passed,
       coalesce(e.not_passed, 0) AS not_passed,
       coalesce(e.outcome_not_available_in_source, 0) AS outcome_not_available_in_source,
       coalesce(c.sessions_cut_short, 0) AS sessions_cut_short,
       coalesce(e.not_passed_outcomes, '') AS not_passed_outcomes,
       coalesce(e.first_not_passed, '') AS first_not_passed,
       coalesce(f.failed_expectations, 0) AS failed_expectations,
       coalesce(f.first_failed_expectation, '') AS first_failed_expectation,
       coalesce(f.first_failed_detail, '') AS first_failed_detail
FROM ended e
FULL JOIN cut c USING (task_id)
LEFT JOIN failed f USING (task_id)
ORDER BY not_passed DESC, failed_expectations DESC, task_id;
