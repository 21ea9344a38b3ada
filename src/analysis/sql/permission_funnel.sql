-- Permission funnel (docs/harness-rules.md#permissions, docs/harness-rules.md#telemetry-discipline): decisions by decision x source x
-- needed_prompt. needed_prompt separates "asked a human" from rule decisions.
-- section: permission_summary | Permission decisions (rates over all permission_decision events) | summary
SELECT count(*) AS decisions,
       count(*) FILTER (WHERE needed_prompt) AS prompted,
       count(*) FILTER (WHERE needed_prompt) / nullif(count(*), 0) AS prompt_rate_of_decisions,
       count(*) FILTER (WHERE decision = 'allow') AS allowed,
       count(*) FILTER (WHERE decision = 'ask') AS asked,
       count(*) FILTER (WHERE decision = 'deny') AS denied,
       count(*) FILTER (WHERE decision = 'deny') / nullif(count(*), 0) AS deny_rate_of_decisions
FROM permission_decision;

-- section: permission_funnel | Permission decisions by decision x source x needed_prompt
SELECT decision, source, needed_prompt,
       count(*) AS decisions,
       count(*) / sum(count(*)) OVER () AS share_of_decisions
FROM permission_decision
GROUP BY decision, source, needed_prompt
ORDER BY decisions DESC, decision, source, needed_prompt;
