/**
 * `--workers` combined with `--repeat` and `--shard`: the worker threads get
 * the units of the sharded, repeated run, so they must run exactly the
 * sessions the main thread would: the same tasks and attempts (repeat
 * indices, session ids), the same verdicts, every attempt's session in the
 * trace; and the shards of a suite partition it on threads as on one.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';
import { cli } from './cli-io.js';

// Passing, failing and erring tasks (a failed expectation, a set-up that exits 3), some with two turns.
const TASKS = Array.from({ length: 8 }, (_, i) => {
  const kind = i === 2 || i === 5 ? 'fails' : i === 6 ? 'errors' : 'passes';
  return `  - id: t${i}-${kind}
    prompt: go
    tools: [read, write]
    files: { a.txt: hi }
    ${kind === 'errors' ? 'setup: exit 3' : ''}
    script:
      ${i % 2 === 0 ? '- tool_use: [{ name: read, input: { file_path: a.txt } }]' : ''}
      - text: ${kind === 'fails' ? 'not it' : 'done'}
    expect: { answer: { contains: done } }
`;
}).join('');

interface RunJson {
  run_id: string;
  tasks: { task_id: string; repeat: number; session_id: string; outcome: string; stop: string; turns: number; checks: { id: string; ok: boolean }[] }[];
}
interface TraceLine {
  event: string;
  run_id: string;
  session_id?: string;
  task_id?: string;
  repeat?: number;
  logical_run_id?: string;
  shard_index?: number;
  shard_count?: number;
  sessions?: number;
}

let dir: string;
let suite: string;
beforeAll(() => {
  dir = tempDir();
  suite = join(dir, 'small.yaml');
  // A hook that notes which thread ran each tool call: a run asked for 2 workers must not quietly run on the main thread.
  writeFileSync(
    join(dir, 'thread-hook.mjs'),
    `import { appendFileSync } from 'node:fs';\nimport { threadId } from 'node:worker_threads';\nexport function preToolUse() { appendFileSync(${JSON.stringify(join(dir, 'threads.log'))}, threadId + '\\n'); return {}; }\n`,
  );
  writeFileSync(suite, `suite: small\ndefaults: { hooks: thread-hook.mjs }\ntasks:\n${TASKS}`);
});

/** The threads that ran tool calls since the last call (0 is the main thread). */
function threadsUsed(): number[] {
  const file = join(dir, 'threads.log');
  const ids = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map(Number) : [];
  rmSync(file, { force: true });
  return [...new Set(ids)].sort();
}

let runs = 0;
async function run(workers: number, ...flags: string[]) {
  const trace = join(dir, `run-${++runs}.jsonl`);
  const result = await cli(['run', suite, '--workers', String(workers), '-j', '4', '--json', '--out', trace, ...flags], { env: { NO_COLOR: '1', TMPDIR: dir } });
  const json = JSON.parse(result.stdout) as RunJson;
  // Session ids without the run id (`<run>.<index>[.<repeat>]`): the attempt's place in the run.
  const attempts = json.tasks.map((t) => ({
    task: t.task_id,
    repeat: t.repeat,
    session: t.session_id.slice(json.run_id.length),
    outcome: t.outcome,
    stop: t.stop,
    turns: t.turns,
    checks: t.checks.map((c) => `${c.id}:${c.ok}`).join(' '),
  }));
  const lines = readFileSync(trace, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as TraceLine);
  const starts = lines.filter((l) => l.event === 'session_start').map((l) => `${l.task_id}#${l.repeat}`);
  const ends = lines.filter((l) => l.event === 'session_end').map((l) => `${l.task_id}`);
  const runStart = lines.find((l) => l.event === 'run_start')!;
  const threads = threadsUsed();
  if (workers === 1) expect(threads).toEqual([0]);
  else expect(threads.length > 0 && !threads.includes(0), `tool calls ran on threads ${threads.join(', ')}`).toBe(true);
  return { code: result.code, stderr: result.stderr, attempts, starts: starts.sort(), ends: ends.sort(), runStart, runEnd: lines.at(-1)! };
}

const key = (a: { task: string; repeat: number }) => `${a.task}#${a.repeat}`;

describe('--workers with --repeat and --shard', () => {
  it('--repeat 3 on 2 worker threads runs the same attempts with the same verdicts as on the main thread', async () => {
    const one = await run(1, '--repeat', '3');
    const two = await run(2, '--repeat', '3');
    expect(one.attempts).toHaveLength(24);
    expect(one.attempts.filter((a) => a.outcome !== 'passed').map(key)).toEqual(
      ['t2-fails', 't5-fails', 't6-errors'].flatMap((t) => [0, 1, 2].map((r) => `${t}#${r}`)),
    );
    expect(two.code).toBe(one.code);
    expect(two.attempts).toEqual(one.attempts);
    // Every attempt that got past set-up has its session in the trace, started with its repeat index and ended once.
    expect(two.starts).toEqual(one.attempts.filter((a) => a.task !== 't6-errors').map(key).sort());
    expect(two.starts).toEqual(one.starts);
    expect(two.ends).toEqual(one.ends);
    expect(two.runEnd).toMatchObject({ event: 'run_end', sessions: 24 });
  }, 300_000);

  it('--shard 1/2 and 2/2 on 2 worker threads run the same tasks and verdicts as on the main thread, and together the whole suite once', async () => {
    const whole = await run(1);
    const shards = [];
    for (const shard of ['1/2', '2/2']) {
      const one = await run(1, '--shard', shard);
      const two = await run(2, '--shard', shard);
      expect(two.attempts, shard).toEqual(one.attempts);
      expect(two.starts, shard).toEqual(one.starts);
      expect(two.code, shard).toBe(one.code);
      expect(two.runStart).toMatchObject({ shard_index: Number(shard[0]), shard_count: 2, logical_run_id: one.runStart.logical_run_id });
      expect(two.attempts.length, shard).toBeGreaterThan(1);
      shards.push(two);
    }
    // A partition: no task in both, none left out, and each task's verdict as in the unsharded run.
    const byTask = (attempts: { task: string; outcome: string; checks: string }[]) => attempts.map((a) => `${a.task} ${a.outcome} ${a.checks}`).sort();
    expect(byTask(shards.flatMap((s) => s.attempts))).toEqual(byTask(whole.attempts));
    expect(shards[0]!.runStart.logical_run_id).toBe(shards[1]!.runStart.logical_run_id);
  }, 300_000);

  it('--workers 2 with --record runs on the main thread and says so (one recording, written by one thread)', async () => {
    const result = await cli(['run', suite, '--workers', '2', '--record', join(dir, 'recording'), '--out', join(dir, 'recorded.jsonl')], { env: { NO_COLOR: '1', TMPDIR: dir } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('faultline: --workers applies to the mock and --replay; --record runs on one thread\n');
    expect(threadsUsed()).toEqual([0]);
  }, 300_000);

  it('--shard 2/2 --repeat 2 on 2 worker threads keeps each task\'s repeats in its shard, as on the main thread', async () => {
    const one = await run(1, '--shard', '2/2', '--repeat', '2');
    const two = await run(2, '--shard', '2/2', '--repeat', '2');
    expect(two.attempts).toEqual(one.attempts);
    expect(two.starts).toEqual(one.starts);
    const tasks = [...new Set(two.attempts.map((a) => a.task))];
    expect(two.attempts.map(key).sort()).toEqual(tasks.flatMap((t) => [`${t}#0`, `${t}#1`]).sort());
  }, 300_000);
});
