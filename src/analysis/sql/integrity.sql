-- Green-but-broken checks (seed §13, §14.7): signs in the numbers of bugs that
-- pass every test. Each count is 0 in a healthy trace.
--   batches_with_identical_durations: 3+ calls of one parallel batch with one
--     and the same measured duration — per-call times replaced by an average (§14.7);
--   sessions_with_prefix_changes: the request prefix (tools + system) changed
--     within a session while the number of tools did not — something dynamic in
--     a description or the system prompt busts the prompt cache (§3.5);
--   tool_sets_with_differing_definitions: sessions offering the same tools on
--     the same provider sent tools payloads of different sizes on their first
--     request — a second path builds the definitions and loses text (§13.11 F11);
--   sessions_with_prefix_collisions: a resident and a deferred tool share a
--     4+ character prefix (after mcp__<server>__) — constrained decoding can turn
--     a call of the unloaded tool into a valid call of the resident one (§10.5, §13.6 F6).
-- section: integrity | Green-but-broken checks (each must be 0) | summary
WITH measured AS (
  SELECT session_key(c.run_id, c.session_id) AS session, c.turn, c.batch, c.tool_use_id, s.duration_ms
  FROM tool_call c
  JOIN tool_success s ON session_key(s.run_id, s.session_id) = session_key(c.run_id, c.session_id) AND s.tool_use_id = c.tool_use_id
  WHERE coalesce(s.duration_source, 'measured') = 'measured'),
-- Cheap aggregates first: only a batch of 3+ rows with one duration can qualify, and few do.
suspects AS (
  SELECT session, turn, batch FROM measured GROUP BY ALL
  HAVING count(*) >= 3 AND min(duration_ms) = max(duration_ms) AND max(duration_ms) > 1),
batches AS (
  SELECT m.session, m.turn, m.batch, count(DISTINCT m.tool_use_id) AS calls, -- copies of a run count once
         count(DISTINCT m.duration_ms) AS distinct_durations, max(m.duration_ms) AS longest
  FROM measured m JOIN suspects USING (session, turn, batch)
  GROUP BY ALL),
prefixes AS (
  SELECT session_key(run_id, session_id) AS session, tools_count, count(DISTINCT prefix_hash) AS hashes
  FROM model_request WHERE prefix_hash IS NOT NULL GROUP BY ALL),
-- Sessions whose first request sent exactly the tools session_start lists (minus the deferred ones):
-- MCP tools join later and tool_search's text names a session's MCP servers, so those sessions are left out.
first_requests AS (
  SELECT r.provider, r.tools_bytes, array_to_string(list_sort(s.tools), ',') AS tool_set
  FROM model_request r
  JOIN session_start s ON session_key(s.run_id, s.session_id) = session_key(r.run_id, r.session_id)
  WHERE r.turn = 1 AND r.tools_bytes IS NOT NULL AND s.tools IS NOT NULL
    AND r.tools_count = len(s.tools) - coalesce(len(s.deferred_tools), 0)
    AND session_key(r.run_id, r.session_id) NOT IN (SELECT session_key(run_id, session_id) FROM mcp_server)),
definition_sets AS (
  SELECT tool_set, provider, count(DISTINCT tools_bytes) AS sizes FROM first_requests GROUP BY ALL),
names AS (
  SELECT session_key(run_id, session_id) AS session, unnest(tools) AS tool, deferred_tools FROM session_start
  WHERE deferred_tools IS NOT NULL AND len(deferred_tools) > 0),
pairs AS (
  SELECT session,
         regexp_replace(tool, '^mcp__[^_]+(?:_[^_]+)*?__', '') AS resident,
         regexp_replace(unnest(deferred_tools), '^mcp__[^_]+(?:_[^_]+)*?__', '') AS deferred,
         tool, deferred_tools
  FROM names),
collisions AS (
  SELECT DISTINCT session FROM pairs
  WHERE NOT list_contains(deferred_tools, tool) AND resident <> deferred
    AND len(resident) >= 4 AND len(deferred) >= 4 AND left(resident, 4) = left(deferred, 4))
SELECT
  (SELECT count(*) FROM batches WHERE calls >= 3 AND distinct_durations = 1 AND longest > 1)::BIGINT AS batches_with_identical_durations,
  (SELECT count(DISTINCT session) FROM prefixes WHERE hashes > 1)::BIGINT AS sessions_with_prefix_changes,
  (SELECT count(*) FROM definition_sets WHERE sizes > 1)::BIGINT AS tool_sets_with_differing_definitions,
  (SELECT count(*) FROM collisions)::BIGINT AS sessions_with_prefix_collisions;
