/**
 * `faultline run --transport t` sets how the SDK reaches the mock for every
 * task that does not pin `transport:`; a pinned task keeps its own (its fault
 * is a real socket's, or its reason says otherwise). This names them, so a
 * forced run never looks like it ran everything on `t` when it did not.
 */
import type { LoadedTask } from './load-suite.js';

const LISTED = 5;

/** One line for the run's output, or null when every task runs on `transport`. */
export function pinnedTransportNote(tasks: readonly LoadedTask[], transport: string): string | null {
  const kept = tasks.filter((t) => t.transport !== undefined && t.transport !== transport);
  if (kept.length === 0) return null;
  const names = kept.slice(0, LISTED).map((t) => `${t.id} (${t.transport}: ${t.transport_reason ?? 'no reason given'})`);
  const more = kept.length > LISTED ? `, and ${kept.length - LISTED} more` : '';
  const count = kept.length === 1 ? '1 task keeps the transport it pins' : `${kept.length} tasks keep the transport they pin`;
  return `--transport ${transport}: ${count}: ${names.join(', ')}${more}`;
}
