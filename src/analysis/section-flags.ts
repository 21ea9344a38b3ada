/**
 * Cell highlighting declared by the section that shows the column, in its SQL
 * file, under the section's marker:
 *
 *   -- flag: lost != 0 bad
 *   -- flag: failure_kind = 'exception' warn when failures > 0
 *   -- flag: triage triage
 *
 * `bad` is shown red (broken by construction), `warn` yellow (needs a look).
 * A flag applies to its section only, so a new column that happens to share a
 * name with a flagged one elsewhere is not coloured by accident. The last form
 * names a rule that needs code (`triage`: src/report/triage.ts).
 */
export type FlagLevel = 'bad' | 'warn';
export type FlagOp = '>' | '>=' | '<' | '<=' | '=' | '!=';
export type FlagValue = number | string | boolean;

export interface FlagTest {
  column: string;
  op: FlagOp;
  value: FlagValue;
}

export type SectionFlag =
  | (FlagTest & { level: FlagLevel; when?: FlagTest })
  /** A rule that needs code, by name. */
  | { column: string; rule: 'triage' };

const TEST = String.raw`([a-z_][a-z0-9_]*)\s*(>=|<=|!=|>|<|=)\s*('(?:[^']*)'|-?\d+(?:\.\d+)?|true|false)`;
const COMPARE = new RegExp(String.raw`^${TEST}\s+(bad|warn)(?:\s+when\s+${TEST})?$`);
const NAMED = /^([a-z_][a-z0-9_]*)\s+(triage)$/;

function literal(text: string): FlagValue {
  if (text.startsWith("'")) return text.slice(1, -1);
  if (text === 'true' || text === 'false') return text === 'true';
  return Number(text);
}

/** One `-- flag:` line's text (after the colon), or an error naming what is wrong. */
export function parseFlag(text: string, section: string): SectionFlag {
  const trimmed = text.trim();
  const named = NAMED.exec(trimmed);
  if (named) return { column: named[1]!, rule: 'triage' };
  const m = COMPARE.exec(trimmed);
  if (!m) throw new Error(`section ${section}: flag "${trimmed}" is not "<column> <op> <value> bad|warn [when <column> <op> <value>]" or "<column> triage"`);
  const flag: SectionFlag = { column: m[1]!, op: m[2] as FlagOp, value: literal(m[3]!), level: m[4] as FlagLevel };
  if (m[5] !== undefined) flag.when = { column: m[5], op: m[6] as FlagOp, value: literal(m[7]!) };
  return flag;
}

/** Whether `value` passes the test; a value of another type (a null, a string against a number) never does. */
export function passes(value: unknown, test: Pick<FlagTest, 'op' | 'value'>): boolean {
  if (typeof value !== typeof test.value) return false;
  const a = value as FlagValue;
  const b = test.value;
  switch (test.op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
  }
}
