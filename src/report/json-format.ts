/**
 * Every JSON document a faultline command prints (`--json`) starts with
 * `format_version`, and its keys are snake_case, one style across commands.
 * The version is bumped when a key is renamed or removed or its meaning
 * changes; new keys are added without a bump.
 */
export const JSON_FORMAT_VERSION = 1;
/**
 * The report's own (`report --json`): 2 since the tool funnel's
 * success_rate_of_executed, which mixed tool_error with exception, became one rate per meaning.
 */
export const REPORT_JSON_FORMAT_VERSION = 2;

export function jsonDocument<T extends object>(body: T): { format_version: number } & T {
  return { format_version: JSON_FORMAT_VERSION, ...body };
}

/** An import summary with its skip reasons as a list (a reason is data, not a key). */
type KindCounts = Record<string, { records: number; events: Record<string, number> }>;

/** Reasons and record kinds are data (free text), not keys: each becomes a list of rows. */
export function importSummaryJson<T extends { skipped: Record<string, number>; warnings?: Record<string, number>; kinds?: KindCounts }>(
  s: T,
): Omit<T, 'skipped' | 'warnings' | 'kinds'> & {
  skipped: { reason: string; records: number }[];
  warnings?: { warning: string; records: number }[];
  kinds?: { kind: string; records: number; events: { event: string; count: number }[] }[];
} {
  const { skipped, warnings, kinds, ...rest } = s;
  return {
    ...rest,
    skipped: Object.entries(skipped).map(([reason, records]) => ({ reason, records })),
    ...(warnings ? { warnings: Object.entries(warnings).map(([warning, records]) => ({ warning, records })) } : {}),
    ...(kinds
      ? { kinds: Object.entries(kinds).map(([kind, k]) => ({ kind, records: k.records, events: Object.entries(k.events).map(([event, count]) => ({ event, count })) })) }
      : {}),
  };
}

/** A plain-data copy with every camelCase key in snake_case (for objects built from TypeScript records). */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(v)]));
}

export function printJson(body: object): string {
  return JSON.stringify(jsonDocument(body), null, 2) + '\n';
}
