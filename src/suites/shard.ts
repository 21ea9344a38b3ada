/**
 * `--shard i/n`: which slice of the tasks this machine runs, the way CI
 * matrices split a suite (one job per shard, traces merged afterwards).
 *
 * Tasks are ordered by a hash of their id (sha-256, so the order does not
 * follow file order or naming) and shard i takes the i-th of n contiguous
 * ranges of that order. That is:
 * - deterministic and stable across runs and machines: the same tasks give
 *   the same slices, whatever order the files were listed in;
 * - balanced: shard sizes differ by at most one task;
 * - a complete partition: every task runs in exactly one shard;
 * - gentle on change: adding or removing one task moves at most n - 1 other
 *   tasks to another shard (a range boundary shifts by one), where a plain
 *   `hash mod n` would keep them put but leave shards unbalanced.
 * Repeats (`--repeat k`) stay with their task, so each shard's trace holds
 * all k sessions of its tasks and pass^k is computed per shard as well.
 */
import { createHash } from 'node:crypto';

export interface ShardSpec {
  /** 1-based, as written on the command line. */
  index: number;
  count: number;
}

export class ShardSpecError extends Error {
  readonly code = 'SHARD_INVALID';
}

/** Parses `i/n` (1 <= i <= n). */
export function parseShard(text: string): ShardSpec {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) throw new ShardSpecError(`--shard must look like i/n (e.g. 2/4), got "${text}"`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1) throw new ShardSpecError(`--shard ${text}: the shard count must be at least 1`);
  if (index < 1 || index > count) throw new ShardSpecError(`--shard ${text}: the shard index must be between 1 and ${count}`);
  return { index, count };
}

/** The hash that orders tasks: 16 hex digits of sha-256 of the id. */
export function shardKey(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 16);
}

/** The tasks of shard `spec` (in their original order, so output still reads suite by suite). */
export function shardTasks<T extends { id: string }>(tasks: readonly T[], spec: ShardSpec): T[] {
  if (spec.count === 1) return [...tasks];
  const ordered = tasks
    .map((task, position) => ({ task, position, key: shardKey(task.id) }))
    // Ids are unique within a run; the id breaks a (practically impossible) hash tie deterministically.
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.task.id < b.task.id ? -1 : a.task.id > b.task.id ? 1 : 0));
  const from = Math.floor(((spec.index - 1) * ordered.length) / spec.count);
  const to = Math.floor((spec.index * ordered.length) / spec.count);
  return ordered
    .slice(from, to)
    .sort((a, b) => a.position - b.position)
    .map((x) => x.task);
}
