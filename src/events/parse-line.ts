/**
 * Checks one JSONL line against the contract and says exactly why it fails.
 * Shared by `faultline validate` and the analysis quarantine so both agree.
 */
import { CONTRACT_VERSION } from './labels.js';
import { EVENT_SCHEMAS, type EventName, type FaultlineEvent } from './schemas.js';

export type LineVerdict =
  | { ok: true; event: FaultlineEvent }
  | { ok: false; kind: LineProblem; reason: string };

export type LineProblem = 'not_utf8' | 'torn' | 'not_json' | 'not_object' | 'newer_version' | 'unknown_event' | 'schema';

export interface LineContext {
  /** True when this is the file's last line and it has no trailing newline. */
  unterminated?: boolean;
}

export function parseLine(line: string, context: LineContext = {}): LineVerdict {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    if (context.unterminated) return { ok: false, kind: 'torn', reason: 'torn last line (no trailing newline, not valid JSON)' };
    return { ok: false, kind: 'not_json', reason: `not JSON: ${(error as Error).message}` };
  }
  return judgeValue(value);
}

/** The contract check of an already parsed line (importers check the events they build with it). */
export function judgeValue(value: unknown): LineVerdict {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, kind: 'not_object', reason: 'not a JSON object' };
  }
  const record = value as Record<string, unknown>;
  if (typeof record.v === 'number' && record.v > CONTRACT_VERSION) {
    return { ok: false, kind: 'newer_version', reason: `contract version v=${record.v} is newer than supported v=${CONTRACT_VERSION}` };
  }
  const name = record.event;
  if (name === undefined) return { ok: false, kind: 'unknown_event', reason: 'no "event" field' };
  if (typeof name !== 'string' || !Object.hasOwn(EVENT_SCHEMAS, name)) {
    return { ok: false, kind: 'unknown_event', reason: `unknown event ${JSON.stringify(name).slice(0, 80)}` };
  }
  const parsed = EVENT_SCHEMAS[name as EventName].safeParse(record);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : '(line)';
    return { ok: false, kind: 'schema', reason: `${name}: ${where}: ${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, event: parsed.data as FaultlineEvent };
}
