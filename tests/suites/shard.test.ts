/** `--shard i/n`: a deterministic, balanced, stable partition, and shard traces that merge in report and diff. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSuites } from '../../src/suites/load-suite.js';
import { parseShard, shardTasks } from '../../src/suites/shard.js';
import { cli } from '../cli/cli-io.js';

const ids = (n: number, prefix = 'task') => Array.from({ length: n }, (_, i) => ({ id: `${prefix}-${i}` }));
const shardOf = (tasks: { id: string }[], count: number) => Array.from({ length: count }, (_, i) => shardTasks(tasks, { index: i + 1, count }).map((t) => t.id));

describe('shardTasks', () => {
  it('splits tasks into n disjoint shards that together hold every task once, sizes within one', () => {
    for (const [n, count] of [[1000, 4], [10, 3], [7, 7], [3, 5], [2001, 8]] as const) {
      const shards = shardOf(ids(n), count);
      const all = shards.flat();
      expect(all).toHaveLength(n);
      expect(new Set(all).size).toBe(n);
      const sizes = shards.map((s) => s.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });

  it('picks by id hash, not by position: the same shards whatever order the tasks come in', () => {
    const tasks = ids(200);
    const reversed = [...tasks].reverse();
    expect(shardOf(reversed, 4).map((s) => [...s].sort())).toEqual(shardOf(tasks, 4).map((s) => [...s].sort()));
    // Not a slice of the file: shard 1 is not simply the first quarter.
    expect(shardOf(tasks, 4)[0]).not.toEqual(tasks.slice(0, 50).map((t) => t.id));
  });

  it('moves at most n-1 tasks to another shard when a task is added', () => {
    const before = shardOf(ids(500), 4);
    const after = shardOf([...ids(500), { id: 'a-new-task' }], 4);
    const home = (shards: string[][]) => new Map(shards.flatMap((s, i) => s.map((id) => [id, i] as const)));
    const [b, a] = [home(before), home(after)];
    const moved = [...b].filter(([id, i]) => a.get(id) !== i);
    expect(moved.length).toBeLessThanOrEqual(3);
  });

  it('parses i/n and rejects what is not a shard', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '2', 'a/b', '1/0', '-1/3']) expect(() => parseShard(bad)).toThrow(/--shard/);
  });
});

describe('faultline run --shard', () => {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-shard-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs each demo task in exactly one of 3 shards (with --repeat), and report and diff merge the shard traces', async () => {
    for (const i of [1, 2, 3]) {
      const { code, stderr } = await cli(['run', 'suites/demo', '--shard', `${i}/3`, '--repeat', '2', '--logical-run-id', 'ci-42', '--out', join(dir, 'shards', `s${i}.jsonl`)]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
    }
    const traces = [1, 2, 3].map((i) => readFileSync(join(dir, 'shards', `s${i}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>));
    const starts = traces.map((t) => t[0]!);
    expect(starts.map((s) => [s.logical_run_id, s.shard_index, s.shard_count])).toEqual([['ci-42', 1, 3], ['ci-42', 2, 3], ['ci-42', 3, 3]]);
    expect(new Set(starts.map((s) => s.run_id)).size).toBe(3);
    const tasksPerShard = traces.map((t) => new Set(t.filter((e) => e.event === 'session_start').map((e) => e.task_id)));
    const all = tasksPerShard.flatMap((s) => [...s]);
    const demo = loadSuites(['suites/demo']).length;
    expect(all).toHaveLength(demo);
    expect(new Set(all).size).toBe(demo);
    // Repeats stay with their task: two sessions of every task in its shard.
    for (const t of traces) expect(t.filter((e) => e.event === 'session_start')).toHaveLength(2 * new Set(t.filter((e) => e.event === 'session_start').map((e) => e.task_id)).size);

    const report = await cli(['report', join(dir, 'shards'), '--json']);
    expect(report.code).toBe(0);
    const json = JSON.parse(report.stdout) as { reports: Record<string, Record<string, { rows: Record<string, unknown>[] }>> };
    const section = (id: string) => Object.values(json.reports).find((r) => id in r)![id]!;
    expect(section('logical_runs').rows).toEqual([
      expect.objectContaining({ logical_run_id: 'ci-42', runs: 3, shards_expected: 3, shards_seen: 3, missing_shards: '', sessions_ended: 2 * demo, sessions_cut_short: 0, passed: 2 * demo }),
    ]);
    expect(section('runs').rows.map((r) => r.shard)).toEqual(['1/3', '2/3', '3/3']);
    expect(section('session_summary').rows[0]).toMatchObject({ sessions_ended: 2 * demo, passed: 2 * demo });

    // Two shards only: the report says one is missing, and diff shows what each side merged.
    const partial = await cli(['report', join(dir, 'shards', 's1.jsonl'), join(dir, 'shards', 's3.jsonl')]);
    expect(partial.stdout).toContain('logical run ci-42: shard 2 of 3 missing');
    // A line lost from the middle of a shard's trace is a seq gap of its run, named as lost events.
    const lines = readFileSync(join(dir, 'shards', 's1.jsonl'), 'utf8').split('\n');
    writeFileSync(join(dir, 'gap.jsonl'), [...lines.slice(0, 5), ...lines.slice(6)].join('\n'));
    const gapped = await cli(['report', join(dir, 'gap.jsonl')]);
    expect(gapped.stdout).toContain('1 event lost: seq gaps in 1 writer (see Runs)');
    const diff = await cli(['diff', join(dir, 'shards'), join(dir, 'shards', 's1.jsonl')]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('ci-42 (3/3 shards)');
    expect(diff.stdout).toContain('ci-42 (1/3 shards)');
  }, 180_000);
});
