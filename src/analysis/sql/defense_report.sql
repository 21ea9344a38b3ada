-- Defense report (docs/harness-rules.md#dead-defense, docs/harness-rules.md#judged-vs-triggered, docs/harness-rules.md#zero-trigger-triage). `triggers` counts defense_trigger
-- events (what fired), `evaluations` the per-session defense_stats counters
-- (how often it was judged); they differ by orders of magnitude on purpose.
-- Zero-trigger triage:
--   disarmed  = implemented by the harness that wrote the sessions, switched off in all of them;
--   unknown   = no session's harness says it implements it (or the trace does not record it), even
--               where it is listed as armed: a name with no code behind it;
--   unwired   = armed but never evaluated;
--   unreached = evaluated, never triggered: the path was not taken (add a scenario).
-- Evidence (docs/harness-rules.md#zero-trigger-triage): the events of the defense's own evaluation point
-- (defense_stats.evaluated_at) in the sessions where it was armed, and of
-- those only the ones it judges (defense_stats.judged_tools / judged_outcome:
-- a guard of bash commands is not evaluated on a read's permission check). An
-- unwired defense whose sessions have such events ran past its point without
-- being judged: its wiring is broken; one whose sessions have none was not reached.

-- table: defense_totals
-- Per defense over every defense_stats event: how often it was judged and fired, and where.
SELECT defense, sum(evaluated) AS evaluations, sum(triggered) AS triggers_in_stats, any_value(evaluated_at) AS evaluated_at,
       any_value(judged_tools) AS judged_tools, any_value(judged_outcome) AS judged_outcome
FROM defense_stats GROUP BY defense;

-- table: unwired_sessions
-- Evidence is shown only for an unwired defense (armed, never evaluated), so the events at its
-- evaluation point are counted only in the sessions where such a defense was armed: usually none.
SELECT s.run_id, s.session_id, s.defense, t.evaluated_at AS point, t.judged_tools AS tools, t.judged_outcome AS outcome
FROM (SELECT run_id, session_id, unnest(defenses_armed) AS defense FROM session_start) s
JOIN defense_totals t USING (defense)
WHERE coalesce(t.evaluations, 0) = 0 AND t.evaluated_at IS NOT NULL;

-- section: defenses | Defenses: armed, evaluated, triggered, zero-trigger triage with evidence
-- flag: triage triage
-- flag: triggers_match_stats = false bad
-- budget: 40
WITH sessions_of AS (
  SELECT run_id, session_id, unnest(defenses_armed) AS defense, defenses_available FROM session_start),
armed AS (
  SELECT defense, count(DISTINCT session_key(run_id, session_id)) AS sessions_armed,
         -- armed where the harness also recorded what it implements, and there implemented
         count(DISTINCT session_key(run_id, session_id)) FILTER (WHERE defenses_available IS NOT NULL) AS armed_recorded,
         count(DISTINCT session_key(run_id, session_id)) FILTER (WHERE list_contains(defenses_available, defense)) AS armed_implemented
  FROM sessions_of GROUP BY defense),
available AS (
  SELECT defense, count(*) AS sessions_available
  FROM (SELECT run_id, session_id, unnest(defenses_available) AS defense FROM session_start)
  GROUP BY defense),
recorded AS (
  SELECT count(*) FILTER (WHERE defenses_available IS NOT NULL) AS sessions_recording FROM session_start),
fired AS (
  SELECT defense, count(*) AS triggers, count(DISTINCT session_key(run_id, session_id)) AS sessions_with_trigger
  FROM defense_trigger GROUP BY defense),
-- The events at each unwired defense's evaluation point, in its sessions: only that point's events are
-- read, and of the call events only those of the tools it judges (all when it names none).
evidence AS (
  SELECT defense, count(*) AS point_events FROM (
    SELECT u.defense FROM unwired_sessions u JOIN model_response USING (run_id, session_id) WHERE u.point = 'model_response'
    -- a turn's end is judged only after a turn that called tools: a text-only answer reaches no turn_end defense
    UNION ALL SELECT u.defense FROM unwired_sessions u JOIN model_response USING (run_id, session_id)
      WHERE u.point = 'turn_end' AND (tool_use_count > 0 OR stop_class = 'tool_use')
    UNION ALL SELECT u.defense FROM unwired_sessions u JOIN tool_call e USING (run_id, session_id)
      WHERE u.point = 'tool_call' AND (u.tools IS NULL OR list_contains(u.tools, e.tool))
    UNION ALL SELECT u.defense FROM unwired_sessions u JOIN permission_decision e USING (run_id, session_id)
      WHERE u.point = 'permission' AND (u.tools IS NULL OR list_contains(u.tools, e.tool))
    UNION ALL SELECT u.defense FROM unwired_sessions u JOIN tool_success e USING (run_id, session_id)
      WHERE u.point = 'tool_result' AND (u.tools IS NULL OR list_contains(u.tools, e.tool))
    UNION ALL SELECT u.defense FROM unwired_sessions u JOIN tool_failure e USING (run_id, session_id)
      WHERE u.point = 'tool_result' AND u.outcome IS NULL AND (u.tools IS NULL OR list_contains(u.tools, e.tool)))
  GROUP BY defense),
names AS (
  SELECT defense, external FROM known_defense
  UNION SELECT defense, false FROM armed WHERE defense NOT IN (SELECT defense FROM known_defense)
  UNION SELECT defense, false FROM available WHERE defense NOT IN (SELECT defense FROM known_defense)
  UNION SELECT defense, false FROM defense_totals WHERE defense NOT IN (SELECT defense FROM known_defense)
  UNION SELECT defense, false FROM fired WHERE defense NOT IN (SELECT defense FROM known_defense)),
joined AS (
  SELECT n.defense, n.external,
         coalesce(armed.sessions_armed, 0) AS sessions_armed,
         coalesce(armed.armed_recorded, 0) AS armed_recorded,
         coalesce(armed.armed_implemented, 0) AS armed_implemented,
         coalesce(available.sessions_available, 0) AS sessions_available,
         coalesce(stats.evaluations, 0) AS evaluations,
         stats.evaluated_at,
         coalesce(fired.triggers, 0) AS triggers,
         coalesce(stats.triggers_in_stats, 0) AS triggers_in_stats,
         stats.judged_tools, stats.judged_outcome,
         coalesce(fired.sessions_with_trigger, 0) AS sessions_with_trigger,
         evidence.point_events
  FROM names n
  LEFT JOIN armed USING (defense) LEFT JOIN available USING (defense) LEFT JOIN defense_totals stats USING (defense)
  LEFT JOIN fired USING (defense) LEFT JOIN evidence USING (defense)),
triaged AS (
  SELECT *,
         CASE evaluated_at WHEN 'model_response' THEN 'model_response' WHEN 'turn_end' THEN 'tool-calling model_response'
              WHEN 'tool_call' THEN 'tool_call' WHEN 'permission' THEN 'permission_decision'
              WHEN 'tool_result' THEN CASE WHEN judged_outcome = 'success' THEN 'tool_success' ELSE 'tool_success/tool_failure' END END
           -- the part it judges, named: "permission_decision (of bash)"
           || CASE WHEN judged_tools IS NOT NULL AND evaluated_at IN ('tool_call', 'permission', 'tool_result')
                   THEN ' (of ' || array_to_string(judged_tools, ', ') || ')' ELSE '' END AS point_event,
         CASE WHEN triggers > 0 THEN 'firing'
              WHEN armed_recorded > 0 AND armed_implemented = 0 AND evaluations = 0 THEN 'unknown'
              WHEN sessions_armed > 0 AND evaluations = 0 THEN 'unwired'
              WHEN sessions_armed > 0 THEN 'unreached'
              WHEN sessions_available > 0 THEN 'disarmed'
              ELSE 'unknown' END AS triage
  FROM joined)
SELECT defense,
       sessions_armed::BIGINT AS sessions_armed,
       evaluations::BIGINT AS evaluations,
       triggers::BIGINT AS triggers,
       sessions_with_trigger::BIGINT AS sessions_with_trigger,
       triggers / nullif(evaluations, 0) AS trigger_rate_of_evaluations,
       sessions_with_trigger / nullif(sessions_armed, 0) AS trigger_rate_of_armed_sessions,
       -- trigger events and the stats counter must agree (judged vs triggered, docs/harness-rules.md#judged-vs-triggered)
       triggers = triggers_in_stats AS triggers_match_stats,
       triage,
       CASE triage
         WHEN 'firing' THEN NULL
         WHEN 'unwired' THEN CASE
           WHEN evaluated_at IS NULL THEN 'its evaluation point is not recorded: check that the code it guards ran'
           WHEN coalesce(point_events, 0) > 0 THEN 'wiring broken: its sessions have ' || point_events || ' ' || point_event
             || (CASE point_events WHEN 1 THEN ' event' ELSE ' events' END) || ', yet it was never evaluated'
           ELSE 'not reached: its sessions have no ' || point_event || ' events, so its code never ran; add a scenario that gets there' END
         WHEN 'unreached' THEN 'evaluated ' || evaluations || (CASE evaluations WHEN 1 THEN ' time' ELSE ' times' END) || ' in ' || sessions_armed
           || (CASE sessions_armed WHEN 1 THEN ' session' ELSE ' sessions' END) || ', never fired: add a scenario that must trigger it'
         WHEN 'disarmed' THEN 'implemented, armed in no session: switched off, or nothing in them for it to judge (no budget, no frozen facts)'
         ELSE CASE WHEN sessions_armed > 0
           THEN 'armed in ' || sessions_armed || (CASE sessions_armed WHEN 1 THEN ' session' ELSE ' sessions' END) || ', but the harness does not implement it: a name with no code behind it'
           WHEN (SELECT sessions_recording FROM recorded) > 0
           THEN 'no session''s harness implements it'
           ELSE 'the trace does not say which defenses its harness implements' END
       END AS evidence
FROM triaged
WHERE NOT external::BOOLEAN OR sessions_armed + evaluations + triggers > 0
ORDER BY CASE triage WHEN 'unwired' THEN 0 WHEN 'unknown' THEN 1 WHEN 'unreached' THEN 2 WHEN 'firing' THEN 3 ELSE 4 END, defense;
