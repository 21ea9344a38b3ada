-- MCP servers (docs/harness-rules.md#mcp-limits, docs/harness-rules.md#mcp-pending): how each server's connection went,
-- from its mcp_server events. A connect is a `connected` event with an
-- attempt (the ones without are re-reads after tools/list_changed); a failed
-- attempt is `failed` or `timeout`; `gave_up` counts the final ones
-- (will_retry false), after which its tools answer "not available" for the
-- rest of the session. `tools_changed` sums the tools a re-read listing
-- changed against the first (description drift, added, removed).
-- section: mcp_servers | MCP servers per server (sessions = sessions with any event of the server; connect ms over connects)
-- flag: sessions_never_connected > 0 warn
-- flag: gave_up > 0 warn
SELECT server,
       count(DISTINCT session_key(run_id, session_id))::BIGINT AS sessions,
       count(DISTINCT session_key(run_id, session_id)) FILTER (WHERE state = 'connected')::BIGINT AS sessions_connected,
       (count(DISTINCT session_key(run_id, session_id)) - count(DISTINCT session_key(run_id, session_id)) FILTER (WHERE state = 'connected'))::BIGINT AS sessions_never_connected,
       count(*) FILTER (WHERE state = 'connected' AND attempt IS NOT NULL)::BIGINT AS connects,
       count(*) FILTER (WHERE state IN ('failed', 'timeout'))::BIGINT AS failed_attempts,
       count(*) FILTER (WHERE state IN ('failed', 'timeout') AND will_retry = false)::BIGINT AS gave_up,
       count(*) FILTER (WHERE state = 'disconnected')::BIGINT AS disconnects,
       max(tools_listed)::BIGINT AS tools_listed_max,
       coalesce(sum(tools_changed), 0)::BIGINT AS tools_changed,
       quantile_cont(duration_ms, 0.50) FILTER (WHERE state = 'connected' AND attempt IS NOT NULL) AS connect_p50_ms,
       max(duration_ms) FILTER (WHERE state = 'connected' AND attempt IS NOT NULL) AS connect_max_ms
FROM mcp_server
GROUP BY server
ORDER BY server;

-- section: mcp_server_states | MCP server events per server, state and error code (sessions = sessions with that row)
SELECT server, state, coalesce(error_code, '') AS error_code,
       count(*)::BIGINT AS events,
       count(DISTINCT session_key(run_id, session_id))::BIGINT AS sessions
FROM mcp_server
GROUP BY server, state, error_code
ORDER BY server,
         CASE state WHEN 'connecting' THEN 0 WHEN 'connected' THEN 1 WHEN 'disconnected' THEN 2 WHEN 'timeout' THEN 3 ELSE 4 END,
         error_code;
