/**
 * Checks a parsed event assertion against the event contract, so a typo fails
 * the suite when it loads instead of counting nothing forever:
 * `count(tool_cal) == 0` (no such event), `where tol = read` (no such field on
 * that event), `failure_kind = not_fund` (not a value the field can hold).
 *
 * Everything comes from the zod schemas in src/events/ (EVENT_SCHEMAS): the
 * event names, each event's fields, and each field's schema. A value is
 * checked by parsing it with its field's schema, so a closed label set
 * (`z.enum`) is checked for membership and an open one (a pattern, a union of
 * shipped names and a user pattern) keeps working as it changes.
 */
import { z } from 'zod';
import { EVENT_SCHEMAS } from '../events/schemas.js';
import { didYouMean } from './did-you-mean.js';
import type { Condition, EventAssertion } from './event-assertion.js';

export interface ContractProblem {
  message: string;
  /** 0-based offset into the assertion text of the word at fault. */
  offset: number;
}

const LIST_MAX = 12;

/** Event name -> its object schema; the event contract (EVENT_SCHEMAS) unless a test passes another. */
export type Contract = Readonly<Record<string, { shape: Record<string, z.ZodType> }>>;

export function checkAssertionContract(assertion: EventAssertion, contract: Contract = EVENT_SCHEMAS as unknown as Contract): ContractProblem[] {
  const { metric } = assertion;
  if (metric.kind === 'lost') return [];
  const events = Object.keys(contract);
  const schema = Object.hasOwn(contract, metric.event) ? contract[metric.event] : undefined;
  if (!schema) return [{ message: `unknown event "${metric.event}"${didYouMean(metric.event, events)}; events: ${events.join(', ')}`, offset: metric.eventAt ?? 0 }];
  const event = { name: metric.event, shape: schema.shape };
  const problems: ContractProblem[] = [];
  if (metric.kind === 'distinct') {
    const problem = fieldProblem(event, metric.field, metric.fieldAt ?? 0);
    if (problem) problems.push(problem);
  }
  for (const condition of metric.where) problems.push(...conditionProblems(event, condition));
  return problems;
}

interface EventShape {
  name: string;
  shape: Record<string, z.ZodType>;
}

function fieldProblem(event: EventShape, field: string, offset: number): ContractProblem | null {
  const fields = Object.keys(event.shape);
  if (Object.hasOwn(event.shape, field)) return null;
  return { message: `${event.name} has no field "${field}"${didYouMean(field, fields)}; its fields: ${fields.join(', ')}`, offset };
}

function conditionProblems(event: EventShape, condition: Condition): ContractProblem[] {
  const missing = fieldProblem(event, condition.field, condition.fieldAt ?? 0);
  if (missing) return [missing];
  const schema = event.shape[condition.field]!;
  const parsed = schema.safeParse(condition.value);
  if (parsed.success) return [];
  const shown = typeof condition.value === 'string' ? `"${condition.value}"` : String(condition.value);
  const named = namedValues(schema);
  const hint = typeof condition.value === 'string' ? didYouMean(condition.value, named.values) : '';
  const where = `${event.name}.${condition.field}`;
  const offset = condition.valueAt ?? 0;
  if (named.closed && named.values.length > 0) {
    const list = named.values.length <= LIST_MAX ? `; one of: ${named.values.join(', ')}` : '';
    return [{ message: `${where} cannot be ${shown}${hint}${list}`, offset }];
  }
  const reason = parsed.error.issues[0]?.message ?? 'not a valid value';
  return [{ message: `${where} cannot be ${shown} (${reason})${hint}`, offset }];
}

/**
 * The values a field's schema names (enum members and literals, through
 * optional, nullable and unions), and whether that is all it accepts (a
 * closed label set) or it also takes an open pattern or any text.
 */
function namedValues(schema: z.ZodType): { values: string[]; closed: boolean } {
  if (schema instanceof z.ZodEnum) return { values: (schema.options as unknown[]).map(String), closed: true };
  if (schema instanceof z.ZodLiteral) return { values: [...schema.values].map(String), closed: true };
  if (schema instanceof z.ZodNull) return { values: [], closed: true };
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return namedValues(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodUnion) {
    const parts = (schema.options as z.ZodType[]).map(namedValues);
    return { values: parts.flatMap((p) => p.values), closed: parts.every((p) => p.closed) };
  }
  return { values: [], closed: false };
}
