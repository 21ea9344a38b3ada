-- Permission funnel (seed §8, §14.6): decisions by decision x source x
-- needed_prompt. needed_prompt separates "asked a human" from rule decisions.
-- section: permission_summary | Permission decisions (rates over all permission_decision events) | summary
SELECT count(*) AS decisions,
       count_if(needed_prompt) AS prompted,
       count_if(needed_prompt) / nullif(count(*), 0) AS prompt_rate_of_decisions,
       count_if(decision = 'allow') AS allowed,
       count_if(decision = 'ask') AS asked,
       count_if(decision = 'deny') AS denied,
       count_if(decision = 'deny') / nullif(count(*), 0) AS deny_rate_of_decisions
FROM permission_decision;

-- section: permission_funnel | Permission decisions by decision x source x needed_prompt
SELECT decision, source, needed_prompt,
       count(*) AS decisions,
       count(*) / sum(count(*)) OVER () AS share_of_decisions
FROM permission_decision
GROUP BY decision, source, needed_prompt
ORDER BY decisions DESC, decision, source, needed_prompt;
