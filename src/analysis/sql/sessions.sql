-- Sessions (seed §4.4, §13.4): outcomes, turn-stop attribution, turns, tokens.
-- cache_read_share_of_prompt_tokens = cache reads / (input + cache reads +
-- cache writes), i.e. input_tokens is taken to exclude cached tokens.
-- section: session_summary | Sessions (rates over ended sessions) | summary
SELECT (SELECT count(*) FROM session_start) AS sessions_started,
       count(*) AS sessions_ended,
       (SELECT count(*) FROM session_start s WHERE NOT EXISTS (
          SELECT 1 FROM session_end e WHERE e.run_id = s.run_id AND e.session_id = s.session_id)) AS sessions_without_end,
       count_if(outcome = 'passed') AS passed,
       count_if(outcome = 'passed') / nullif(count(*), 0) AS pass_rate_of_ended_sessions,
       sum(turns)::BIGINT AS turns,
       quantile_cont(turns, 0.5) AS p50_turns_per_session,
       max(turns) AS max_turns_per_session,
       sum(input_tokens)::BIGINT AS input_tokens,
       sum(output_tokens)::BIGINT AS output_tokens,
       sum(cache_read_tokens)::BIGINT AS cache_read_tokens,
       sum(cache_write_tokens)::BIGINT AS cache_write_tokens,
       sum(cache_read_tokens) / nullif(sum(input_tokens + cache_read_tokens + cache_write_tokens), 0) AS cache_read_share_of_prompt_tokens,
       quantile_cont(duration_ms, 0.95) AS p95_ms_per_session
FROM session_end;

-- section: session_outcomes | Session outcomes (share of ended sessions)
SELECT o.outcome,
       count(s.outcome) AS sessions,
       count(s.outcome) / nullif((SELECT count(*) FROM session_end), 0) AS share_of_ended_sessions
FROM known_outcome o LEFT JOIN session_end s USING (outcome)
GROUP BY o.outcome
ORDER BY sessions DESC, o.outcome;

-- section: session_stops | Turn-stop attribution (why the loop ended; share of ended sessions)
SELECT stop,
       count(*) AS sessions,
       count(*) / sum(count(*)) OVER () AS share_of_ended_sessions
FROM session_end
GROUP BY stop
ORDER BY sessions DESC, stop;
