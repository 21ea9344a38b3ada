/**
 * `faultline run --wire w` sets the wire of every task that does not pin one;
 * a task that pins `wire:` keeps it, because its fault exists only on that
 * wire (an Anthropic-only stop reason, interleaved OpenAI deltas). This says
 * which tasks keep another wire, so a forced run never looks like it ran
 * everything on `w` when it did not.
 */
import type { LoadedTask } from './load-suite.js';

const LISTED = 5;

/** One line for the run's output, or null when every task speaks `wire`. */
export function pinnedWireNote(tasks: readonly LoadedTask[], wire: string): string | null {
  const kept = tasks.filter((t) => t.wire !== undefined && t.wire !== wire);
  if (kept.length === 0) return null;
  const names = kept.slice(0, LISTED).map((t) => `${t.id} (${t.wire})`);
  const more = kept.length > LISTED ? `, and ${kept.length - LISTED} more` : '';
  const count = kept.length === 1 ? '1 task keeps the wire it pins' : `${kept.length} tasks keep the wire they pin`;
  return `--wire ${wire}: ${count}: ${names.join(', ')}${more}`;
}
