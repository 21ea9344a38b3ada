/**
 * The worker-pool size (docs/harness-rules.md#worker-pool): default 10, overridable with
 * FAULTLINE_MAX_TOOL_CONCURRENCY. A bad value falls back to the default
 * rather than to "unbounded" or "zero" (which would hang the turn).
 */
export const DEFAULT_MAX_TOOL_CONCURRENCY = 10;
export const MAX_TOOL_CONCURRENCY_ENV = 'FAULTLINE_MAX_TOOL_CONCURRENCY';

export function maxToolConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[MAX_TOOL_CONCURRENCY_ENV]?.trim();
  if (raw === undefined || raw === '' || !/^\d+$/.test(raw)) return DEFAULT_MAX_TOOL_CONCURRENCY;
  const n = Number.parseInt(raw, 10);
  return Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_MAX_TOOL_CONCURRENCY;
}
