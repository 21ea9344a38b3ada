-- Model calls (docs/harness-rules.md#stop-reasons, docs/harness-rules.md#the-loop): provider errors by kind, retries, and the
-- stop_class distribution where `null` and `unknown` are counted classes.
-- section: model_summary | Model calls (rates over model_request events) | summary
WITH req AS (SELECT count(*) AS n FROM model_request),
res AS (SELECT count(*) AS n, quantile_cont(duration_ms, 0.95) AS p95, quantile_cont(ttft_ms, 0.95) AS p95_ttft FROM model_response),
err AS (SELECT count(*) AS n, count(*) FILTER (WHERE will_retry) AS retried FROM model_error)
SELECT req.n AS requests,
       res.n AS responses,
       err.n AS errors,
       err.n / nullif(req.n, 0) AS error_rate_of_requests,
       err.retried AS errors_retried,
       err.retried / nullif(err.n, 0) AS retry_rate_of_errors,
       res.p95 AS p95_ms_of_responses,
       res.p95_ttft AS p95_ttft_ms_of_responses
FROM req, res, err;

-- section: stop_classes | Stop classes (share of model_response events; null and unknown fail closed)
SELECT k.stop_class,
       count(r.stop_class) AS responses,
       count(r.stop_class) / nullif((SELECT count(*) FROM model_response), 0) AS share_of_responses
FROM known_stop_class k LEFT JOIN model_response r USING (stop_class)
GROUP BY k.stop_class
UNION ALL
-- SQL NULL is not the 'null' class: the imported trace's source did not record the stop reason.
SELECT '(not available in source)', count(*), count(*) / nullif((SELECT count(*) FROM model_response), 0)
FROM model_response WHERE stop_class IS NULL HAVING count(*) > 0
ORDER BY responses DESC, stop_class;

-- section: model_errors | Provider errors by kind (rate_of_requests = errors / model_request count)
SELECT k.error_kind,
       count(e.error_kind) AS errors,
       count(*) FILTER (WHERE e.will_retry) AS retried,
       count(e.error_kind) / nullif((SELECT count(*) FROM model_request), 0) AS rate_of_requests
FROM known_error_kind k LEFT JOIN model_error e USING (error_kind)
GROUP BY k.error_kind
ORDER BY errors DESC, k.error_kind;
