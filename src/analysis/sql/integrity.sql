-- Green-but-broken checks (docs/harness-rules.md#green-but-broken, docs/harness-rules.md#per-call-durations): signs in the numbers of bugs that
-- pass every test. Each count is 0 in a healthy trace.
--   batches_with_identical_durations: 3+ calls of one parallel batch with one
--     and the same measured duration (a call with no duration is not a measured one) — per-call times
--     replaced by an average (docs/harness-rules.md#per-call-durations);
--   sessions_with_prefix_changes: the request prefix (tools + system) changed
--     within a session while the number of tools did not — something dynamic in
--     a description or the system prompt busts the prompt cache (docs/harness-rules.md#stable-prefix);
--   tool_sets_with_differing_definitions: sessions offering the same tools on
--     the same provider sent tools payloads of different sizes on their first
--     request — a second path builds the definitions and loses text (docs/harness-rules.md#two-path-divergence);
--   sessions_with_prefix_collisions: a resident and a deferred tool share a
--     4+ character prefix, by the rule `faultline lint-tools` applies (MCP names
--     compared after mcp__, and after mcp__<server>__ on one server): the DuckDB
--     function tool_prefix_collision runs that very code (analysis/rule-functions.ts)
--     — constrained decoding can turn a call of the unloaded tool into a valid
--     call of the resident one (docs/harness-rules.md#prefix-collapse).

-- The first check is narrowed in steps, each a table joined to one event view, so that every join
-- builds on the table (exactly sized, usually empty) and no step joins two whole views.
-- table: shared_durations
-- A batch of 3+ calls with one duration has 3+ successes in its session sharing that duration. Grouped
-- by a hash of the session key (a collision only adds candidates; each is judged in full below).
SELECT duration_ms, hash(run_id, session_id) AS session_hash FROM tool_success
WHERE coalesce(duration_source, 'measured') = 'measured' AND duration_ms > 1
GROUP BY ALL HAVING count(*) >= 3;

-- table: candidate_successes
SELECT s.run_id, s.session_id, s.tool_use_id
FROM tool_success s JOIN shared_durations d ON d.duration_ms = s.duration_ms AND d.session_hash = hash(s.run_id, s.session_id)
WHERE coalesce(s.duration_source, 'measured') = 'measured';

-- table: candidate_batches
SELECT DISTINCT c.run_id, c.session_id, c.turn, c.batch FROM tool_call c JOIN candidate_successes USING (run_id, session_id, tool_use_id);

-- table: candidate_calls
-- Every call of a candidate batch: it qualifies only if all its measured calls share the one duration.
SELECT c.run_id, c.session_id, c.turn, c.batch, c.tool_use_id FROM tool_call c JOIN candidate_batches USING (run_id, session_id, turn, batch);

-- section: integrity | Green-but-broken checks (each must be 0) | summary
-- flag: batches_with_identical_durations > 0 bad
-- flag: tool_sets_with_differing_definitions > 0 bad
-- flag: sessions_with_prefix_changes > 0 warn
-- flag: sessions_with_prefix_collisions > 0 warn
WITH batches AS (
  SELECT c.run_id, c.session_id, c.turn, c.batch, count(DISTINCT c.tool_use_id) AS calls, -- copies of a run count once
         count(DISTINCT s.duration_ms) AS distinct_durations, max(s.duration_ms) AS longest
  FROM candidate_calls c JOIN tool_success s USING (run_id, session_id, tool_use_id)
  WHERE coalesce(s.duration_source, 'measured') = 'measured' AND s.duration_ms IS NOT NULL
  GROUP BY c.run_id, c.session_id, c.turn, c.batch),
-- Two hashes under one tools_count: min and max differ (cheaper than counting distinct hashes).
prefix_changes AS (
  SELECT run_id, session_id FROM model_request WHERE prefix_hash IS NOT NULL
  GROUP BY run_id, session_id, tools_count HAVING min(prefix_hash) <> max(prefix_hash)),
-- Sessions whose first request sent exactly the tools session_start lists (minus the deferred ones):
-- MCP tools join later and tool_search's text names a session's MCP servers, so those sessions are left out.
first_requests AS (
  SELECT r.provider, r.tools_bytes, array_to_string(list_sort(s.tools), ',') AS tool_set
  FROM (SELECT * FROM model_request WHERE turn = 1 AND tools_bytes IS NOT NULL) r
  ANTI JOIN mcp_server USING (run_id, session_id)
  JOIN session_start s USING (run_id, session_id)
  WHERE s.tools IS NOT NULL AND r.tools_count = len(s.tools) - coalesce(len(s.deferred_tools), 0)),
definition_sets AS (
  SELECT tool_set, provider, count(DISTINCT tools_bytes) AS sizes FROM first_requests GROUP BY ALL),
-- Collisions depend only on a session's tool lists: judged once per distinct pair of lists.
tool_lists AS (
  SELECT DISTINCT tools, deferred_tools FROM session_start WHERE deferred_tools IS NOT NULL AND len(deferred_tools) > 0),
pairs AS (
  SELECT tools, deferred_tools, tool AS resident, unnest(deferred_tools) AS deferred
  FROM (SELECT tools, deferred_tools, unnest(tools) AS tool FROM tool_lists)),
-- session_start.tools lists the deferred tools too: only the others are resident.
colliding_lists AS (
  SELECT DISTINCT tools, deferred_tools FROM pairs
  WHERE NOT list_contains(deferred_tools, resident) AND tool_prefix_collision(resident, deferred))
SELECT
  (SELECT count(*) FROM batches WHERE calls >= 3 AND distinct_durations = 1 AND longest > 1)::BIGINT AS batches_with_identical_durations,
  (SELECT count(DISTINCT session_key(run_id, session_id)) FROM prefix_changes)::BIGINT AS sessions_with_prefix_changes,
  (SELECT count(*) FROM definition_sets WHERE sizes > 1)::BIGINT AS tool_sets_with_differing_definitions,
  (SELECT count(DISTINCT session_key(run_id, session_id)) FROM session_start SEMI JOIN colliding_lists USING (tools, deferred_tools))::BIGINT AS sessions_with_prefix_collisions;
