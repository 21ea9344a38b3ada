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

type Wire = 'anthropic' | 'openai' | 'responses' | 'gemini';

/**
 * The wire a task runs on when the run asks for `wanted` (absent: the
 * default, anthropic): a pinned `wire:` always; else `wanted` when the task's
 * fault exists there (`wires:` absent or listing it); else the first wire
 * where it does. The one answer for the mock source, the CLI note and the tests.
 */
export function taskWire(task: Pick<LoadedTask, 'wire' | 'wires'>, wanted?: Wire): Wire {
  if (task.wire) return task.wire;
  const want = wanted ?? 'anthropic';
  return !task.wires || task.wires.includes(want) ? want : task.wires[0]!;
}

/** One line for the run's output, or null when every task speaks `wire`. */
export function pinnedWireNote(tasks: readonly LoadedTask[], wire: string): string | null {
  const kept = tasks.filter((t) => taskWire(t, wire as Wire) !== wire);
  if (kept.length === 0) return null;
  const names = kept.slice(0, LISTED).map((t) => `${t.id} (${taskWire(t, wire as Wire)})`);
  const more = kept.length > LISTED ? `, and ${kept.length - LISTED} more` : '';
  const count = kept.length === 1 ? '1 task runs on the wire it pins or where its fault exists' : `${kept.length} tasks run on the wire they pin or where their fault exists`;
  return `--wire ${wire}: ${count}: ${names.join(', ')}${more}`;
}
