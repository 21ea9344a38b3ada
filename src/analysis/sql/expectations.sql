-- Expectations: one `expectation` event per check a suite task makes after
-- its session (src/suites/expectations.ts); the task passes when all hold.
-- An id names the check within its task (`stop`, `answer.0`, `files.<path>`,
-- `events.<assertion>`), so one id may stand for different checks in
-- different tasks: `tasks` says how many tasks share it, and the list of
-- failed expectations names the task. `detail` is free text from the trace.
-- section: expectation_summary | Expectations (fail rate over checked expectations) | summary
-- flag: failed > 0 bad
SELECT count(*) AS checked,
       count(*) FILTER (WHERE NOT ok) AS failed,
       count(*) FILTER (WHERE NOT ok) / nullif(count(*), 0) AS fail_rate_of_checked,
       count(DISTINCT session_key(run_id, session_id)) AS sessions_checked,
       count(DISTINCT session_key(run_id, session_id)) FILTER (WHERE NOT ok) AS sessions_with_failed_check
FROM expectation;

-- section: expectations | Expectations per id (fail_rate_of_checked = failed / checked; failing ids first)
-- flag: failed > 0 bad
SELECT id,
       count(DISTINCT task_id) AS tasks,
       count(*) AS checked,
       count(*) FILTER (WHERE NOT ok) AS failed,
       count(*) FILTER (WHERE NOT ok) / count(*) AS fail_rate_of_checked
FROM expectation
GROUP BY id
ORDER BY failed DESC, fail_rate_of_checked DESC, id;

-- section: expectation_failures | Failed expectations (by task, then session, in check order) | first 50
-- A total order that names the run, never the input file: two runs that share session ids list the same
-- way whatever order their traces were given in (the same trace read twice gives equal rows).
SELECT session_id, task_id, id, detail
FROM expectation
WHERE NOT ok
ORDER BY task_id, session_id, run_id, seq, id, detail;
