/**
 * The fast path's schema check of a suite: the same verdict and the same
 * output as `SuiteSpec.safeParse` for a suite that passes, in a fraction of
 * the time.
 *
 * zod parses an object by running every key of its shape, present or not: a
 * task has ~55 possible keys (its own and every task setting) and uses ~6, so
 * 2,000 tasks ran 110,000 parsers, nearly all for absent optional keys. Here
 * each task is parsed with TaskSpec narrowed to the keys it has (plus those
 * zod fills in or requires), one narrowed schema per distinct set of keys
 * (a suite has a few). That gives what the whole TaskSpec gives: a key left
 * out is absent and optional (its parser adds nothing and reports nothing),
 * every key present is parsed by the same schema, the object is as strict,
 * and the output keys come in the shape's order.
 *
 * Only success counts here: on any problem the caller reads the suite again
 * the slow way, with the whole schema, for the `file:line:col` messages.
 */
import { z } from 'zod';
import { SuiteSpec, TaskSpec } from './schema.js';

const SuiteHead = SuiteSpec.extend({ tasks: z.array(z.unknown()).min(1) });

const TASK_KEYS = Object.keys(TaskSpec.shape) as (keyof typeof TaskSpec.shape)[];
/** Keys whose parser adds nothing for an absent value (optional in and out); every other key stays in every narrowed schema. */
const SKIPPABLE = new Set<string>(TASK_KEYS.filter((key) => TaskSpec.shape[key]._zod.optin === 'optional' && TaskSpec.shape[key]._zod.optout === 'optional'));

/**
 * Distinct key sets narrowed per suite file; past this many (hand-varied tasks) a task is checked with the whole
 * TaskSpec, so a file of all-different tasks compiles no more than this many schemas.
 */
const NARROWED_PER_FILE = 32;

export function validateByShape(value: unknown, params?: { jitless: boolean }): SuiteSpec | null {
  const head = SuiteHead.safeParse(value, params);
  if (!head.success) return null;
  // Per call, not per process: zod compiles a narrowed schema on its first use (jit), which pays only within a large file.
  const narrowed = new Map<string, z.ZodType<TaskSpec>>();
  const tasks: TaskSpec[] = [];
  for (const task of head.data.tasks) {
    const parsed = schemaFor(task, narrowed).safeParse(task, params);
    if (!parsed.success) return null;
    tasks.push(parsed.data);
  }
  return { ...head.data, tasks };
}

function schemaFor(task: unknown, narrowed: Map<string, z.ZodType<TaskSpec>>): z.ZodType<TaskSpec> {
  if (typeof task !== 'object' || task === null || Array.isArray(task)) return TaskSpec;
  const keys = Object.keys(task);
  const id = keys.join('\n');
  let schema = narrowed.get(id);
  if (schema === undefined) {
    if (narrowed.size >= NARROWED_PER_FILE) return TaskSpec;
    const present = new Set(keys);
    // The mask in the shape's order: zod writes the output's keys in the mask's.
    const mask: Partial<Record<keyof typeof TaskSpec.shape, true>> = {};
    for (const key of TASK_KEYS) if (present.has(key) || !SKIPPABLE.has(key)) mask[key] = true;
    schema = TaskSpec.pick(mask) as unknown as z.ZodType<TaskSpec>;
    narrowed.set(id, schema);
  }
  return schema;
}
