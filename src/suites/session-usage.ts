/**
 * A session's turns and token usage as its events tell them: the turns its
 * events reach and the tokens of its model_response events summed. What a
 * session_end must carry when the harness's own totals are lost (its worker
 * thread died, runAgent threw): reports sum session_end's tokens, so a zero
 * there would hide model calls whose events are in the trace. A token count
 * some response did not record (null) leaves the sum null, "not available",
 * never a guess.
 */
import type { EventInput } from '../events/index.js';

export interface SessionUsage {
  turns: number;
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_tokens: number | null;
  cache_write_tokens: number | null;
}

const TOKEN_FIELDS = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens'] as const;

export function emptyUsage(): SessionUsage {
  return { turns: 0, input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
}

/** Counts one of the session's events into `into`: a turn-scoped event raises the turns, a model_response adds its tokens. */
export function addEventUsage(into: SessionUsage, event: EventInput): void {
  addFieldsUsage(into, event.event, event);
}

/** The same for an event given as its name and its fields (a session's event in parts, events/sink.ts). */
export function addFieldsUsage(into: SessionUsage, name: string, fields: object): void {
  const turn = (fields as { turn?: unknown }).turn;
  if (typeof turn === 'number' && turn > into.turns) into.turns = turn;
  if (name !== 'model_response') return;
  const tokens = fields as Record<(typeof TOKEN_FIELDS)[number], number | null>;
  for (const field of TOKEN_FIELDS) into[field] = sum(into[field], tokens[field]);
}

/** Adds `from` (usage of later events of the same session) into `into`. */
export function mergeUsage(into: SessionUsage, from: SessionUsage): void {
  into.turns = Math.max(into.turns, from.turns);
  for (const field of TOKEN_FIELDS) into[field] = sum(into[field], from[field]);
}

/** The usage of a session's events, in emit order. */
export function usageOfEvents(events: readonly EventInput[]): SessionUsage {
  const usage = emptyUsage();
  for (const event of events) addEventUsage(usage, event);
  return usage;
}

/** Input plus output tokens, as a task outcome counts them (0 where unknown). */
export function outcomeTokens(usage: Pick<SessionUsage, 'input_tokens' | 'output_tokens'>): number {
  return (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0);
}

function sum(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}
