/**
 * Every JSON document a faultline command prints (`--json`) starts with
 * `format_version`, and its keys are snake_case, one style across commands.
 * The version is bumped when a key is renamed or removed or its meaning
 * changes; new keys are added without a bump.
 */
export const JSON_FORMAT_VERSION = 1;

export function jsonDocument<T extends object>(body: T): { format_version: number } & T {
  return { format_version: JSON_FORMAT_VERSION, ...body };
}

/** An import summary with its skip reasons as a list (a reason is data, not a key). */
export function importSummaryJson<T extends { skipped: Record<string, number> }>(s: T): Omit<T, 'skipped'> & { skipped: { reason: string; records: number }[] } {
  return { ...s, skipped: Object.entries(s.skipped).map(([reason, records]) => ({ reason, records })) };
}

export function printJson(body: object): string {
  return JSON.stringify(jsonDocument(body), null, 2) + '\n';
}
