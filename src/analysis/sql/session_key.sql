-- A session is (run_id, session_id): a session id is unique only within its
-- run (two runs of another harness may both number theirs sess-0001). Every
-- report counts, joins and partitions sessions by this key, never by
-- session_id alone (tests/analysis/session-key.test.ts holds every .sql file
-- to it). NULL for run-level events, which have no session, so
-- count(DISTINCT session_key(...)) counts sessions only.
CREATE OR REPLACE MACRO session_key(run_id, session_id) AS
  CASE WHEN session_id IS NULL THEN NULL ELSE {'run_id': run_id, 'session_id': session_id} END
