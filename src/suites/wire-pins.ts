/**
 * `faultline run --wire w` sets the wire of every task that does not pin one;
 * a task that pins `wire:` keeps it, because its fault exists only on that
 * wire (an Anthropic-only stop reason, interleaved OpenAI deltas), and a task
 * whose `wires` leave `w` out keeps the first it lists. This says
 * which tasks keep another wire, so a forced run never looks like it ran
 * everything on `w` when it did not.
 */
import type { LoadedTask } from './load-suite.js';

const LISTED = 5;

/** The wire a task speaks when a run asks for `forced`: a task whose fault does not exist there (`wires`) keeps the first wire it lists. */
export function effectiveWire<W extends string>(task: { wire?: W | undefined; wires?: readonly W[] | undefined }, forced: W | undefined): W | undefined {
  if (task.wire !== undefined) return task.wire;
  if (forced !== undefined && task.wires !== undefined && !task.wires.includes(forced)) return task.wires[0];
  return forced;
}

/** One line for the run's output, or null when every task speaks `wire`. */
export function pinnedWireNote(tasks: readonly LoadedTask[], wire: string): string | null {
  const kept = tasks.flatMap((t) => {
    const spoken = effectiveWire<string>(t, wire);
    return spoken !== undefined && spoken !== wire ? [{ id: t.id, wire: spoken }] : [];
  });
  if (kept.length === 0) return null;
  const names = kept.slice(0, LISTED).map((t) => `${t.id} (${t.wire})`);
  const more = kept.length > LISTED ? `, and ${kept.length - LISTED} more` : '';
  const count = kept.length === 1 ? '1 task keeps the wire it pins' : `${kept.length} tasks keep the wire they pin`;
  return `--wire ${wire}: ${count}: ${names.join(', ')}${more}`;
}
