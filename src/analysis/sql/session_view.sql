-- Session view: the steps of the sessions a report links to, on one time
-- axis. Not one of the report's sections: the caller fills the temporary
-- table view_sessions (run_id, session_id) with the sessions to show
-- (src/analysis/session-view.ts). Times are ms from the session's
-- session_start; a step with no time of its own is NULL, never a guess.
-- Every text column is from the trace: untrusted.

-- table: view_start
SELECT s.run_id, s.session_id, min(s.ts) AS t0
FROM session_start s JOIN view_sessions v USING (run_id, session_id)
GROUP BY s.run_id, s.session_id;

-- section: facts | Session
SELECT s.run_id, s.session_id, s.task_id, s.scenario, s."repeat", s.permission_mode,
       array_to_string(s.defenses_armed, ', ') AS defenses_armed,
       e.outcome, e.stop, e.turns, e.duration_ms, e.input_tokens, e.output_tokens,
       s.ts AS started_ts
FROM session_start s JOIN view_start t USING (run_id, session_id)
LEFT JOIN session_end e USING (run_id, session_id)
WHERE s.ts = t.t0
ORDER BY s.run_id, s.session_id;

-- section: model | Model calls (a bar from request to answer, per turn)
SELECT r.run_id, r.session_id, r.turn,
       r.ts - r.duration_ms - t.t0 AS start_ms, r.ts - t.t0 AS end_ms,
       r.stop_class, r.tool_use_count, r.output_tokens
FROM model_response r JOIN view_start t USING (run_id, session_id)
ORDER BY r.run_id, r.session_id, r.ts, r.seq;

-- section: calls | Tool calls (each from its tool_call to its result; permission decision alongside)
WITH results AS (
  SELECT run_id, session_id, tool_use_id, ts, duration_ms, 'success' AS result, NULL AS failure_kind, NULL AS error_code, truncated, spilled
  FROM tool_success
  UNION ALL
  SELECT run_id, session_id, tool_use_id, ts, duration_ms, 'failure', failure_kind, error_code, NULL, NULL
  FROM tool_failure
)
SELECT c.run_id, c.session_id, c.turn, c.batch, c.tool, c.requested_tool, c.tool_use_id, c.concurrency_safe,
       c.ts - t.t0 AS start_ms,
       CASE WHEN r.ts IS NOT NULL THEN greatest(r.ts, c.ts) - t.t0 END AS end_ms,
       r.duration_ms,
       -- No result: in flight when the run was killed (its session never ended: cut short), or lost (it ended without one).
       coalesce(r.result, CASE WHEN EXISTS (SELECT 1 FROM session_end e WHERE session_key(e.run_id, e.session_id) = session_key(c.run_id, c.session_id)) THEN 'lost' ELSE 'cut_short' END) AS result, r.failure_kind, r.error_code, r.truncated, r.spilled,
       p.decision, p.source AS decision_source
FROM tool_call c JOIN view_start t USING (run_id, session_id)
LEFT JOIN results r USING (run_id, session_id, tool_use_id)
LEFT JOIN permission_decision p USING (run_id, session_id, tool_use_id)
ORDER BY c.run_id, c.session_id, c.ts, c.seq;

-- section: marks | Marks: retries, model errors, defense triggers and reminders, hooks that acted, conformance violations
SELECT run_id, session_id, ts - t0 AS at_ms, turn,
       CASE WHEN will_retry THEN 'retry' ELSE 'model_error' END AS kind,
       error_kind AS label,
       concat_ws(' · ', 'attempt ' || attempt, 'status ' || status, 'retry after ' || retry_after_ms || ' ms') AS detail,
       NULL AS tool_use_id
FROM model_error JOIN view_start USING (run_id, session_id)
UNION ALL
SELECT run_id, session_id, ts - t0, turn,
       CASE WHEN action = 'hint' THEN 'reminder' ELSE 'defense' END,
       coalesce(external_name, defense), concat_ws(' · ', action, tool), NULL
FROM defense_trigger JOIN view_start USING (run_id, session_id)
UNION ALL
SELECT run_id, session_id, ts - t0, turn, 'hook', hook, concat_ws(' · ', effect, tool), tool_use_id
FROM hook JOIN view_start USING (run_id, session_id)
WHERE effect <> 'none'
UNION ALL
SELECT run_id, session_id, ts - t0, turn, 'conformance', check_id, concat_ws(' · ', severity, detail), NULL
FROM conformance JOIN view_start USING (run_id, session_id)
ORDER BY run_id, session_id, at_ms, kind, label, detail, tool_use_id;

-- section: permissions | Permission decisions
SELECT run_id, session_id, ts - t0 AS at_ms, turn, tool, tool_use_id, decision, source, needed_prompt, rule_id
FROM permission_decision JOIN view_start USING (run_id, session_id)
ORDER BY run_id, session_id, ts, seq;

-- section: expectations | Expectations (failed first)
SELECT run_id, session_id, id, ok, detail
FROM expectation JOIN view_start USING (run_id, session_id)
ORDER BY run_id, session_id, ok, seq, id;
