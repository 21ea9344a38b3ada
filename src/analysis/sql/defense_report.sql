-- Defense report (seed §13.1, §13.3, §14.4). `triggers` counts defense_trigger
-- events (what fired), `evaluations` the per-session defense_stats counters
-- (how often it was judged); they differ by orders of magnitude on purpose.
-- Zero-trigger triage: disarmed = never armed; unwired = armed but never
-- evaluated (wiring is broken: fix code); unreached = evaluated, never
-- triggered (path not taken: add a scenario that must trigger it).
-- section: defenses | Defenses: armed, evaluated, triggered, zero-trigger triage
WITH armed AS (
  SELECT defense, count(DISTINCT session) AS sessions_armed
  FROM (SELECT session_key(run_id, session_id) AS session, unnest(defenses_armed) AS defense FROM session_start)
  GROUP BY defense),
stats AS (
  SELECT defense, sum(evaluated) AS evaluations, sum(triggered) AS triggers_in_stats
  FROM defense_stats GROUP BY defense),
fired AS (
  SELECT defense, count(*) AS triggers, count(DISTINCT session_key(run_id, session_id)) AS sessions_with_trigger
  FROM defense_trigger GROUP BY defense),
joined AS (
  SELECT k.defense, k.external,
         coalesce(armed.sessions_armed, 0) AS sessions_armed,
         coalesce(stats.evaluations, 0) AS evaluations,
         coalesce(fired.triggers, 0) AS triggers,
         coalesce(stats.triggers_in_stats, 0) AS triggers_in_stats,
         coalesce(fired.sessions_with_trigger, 0) AS sessions_with_trigger
  FROM known_defense k
  LEFT JOIN armed USING (defense) LEFT JOIN stats USING (defense) LEFT JOIN fired USING (defense))
SELECT defense,
       sessions_armed::BIGINT AS sessions_armed,
       evaluations::BIGINT AS evaluations,
       triggers::BIGINT AS triggers,
       sessions_with_trigger::BIGINT AS sessions_with_trigger,
       triggers / nullif(evaluations, 0) AS trigger_rate_of_evaluations,
       sessions_with_trigger / nullif(sessions_armed, 0) AS trigger_rate_of_armed_sessions,
       -- trigger events and the stats counter must agree (judged vs triggered, §13.3)
       triggers = triggers_in_stats AS triggers_match_stats,
       CASE WHEN triggers > 0 THEN 'firing'
            WHEN sessions_armed = 0 THEN 'disarmed'
            WHEN evaluations = 0 THEN 'unwired'
            ELSE 'unreached' END AS triage
FROM joined
WHERE NOT external::BOOLEAN OR sessions_armed + evaluations + triggers > 0
ORDER BY CASE triage WHEN 'unwired' THEN 0 WHEN 'unreached' THEN 1 WHEN 'firing' THEN 2 ELSE 3 END, defense;
