/**
 * `faultline run --workers N` spreads the sessions over worker threads and
 * must look exactly like the single-thread run from outside: the same
 * outcomes and expectations, the same events per type, each session's events
 * in the same order, one trace file whose seq runs 1..n without a gap. Also:
 * a worker that dies is an internal error naming its task, not a hang.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';
import { cli } from './cli-io.js';
import { slowSuite } from './slow-suite.js';

// Demo tasks (some fail on purpose), fault scenarios with defense and hook modules loaded from the suite,
// wire faults (some pinned to the HTTP transport), and look-alike controls.
const SUITES = [
  'suites/demo/basics.yaml',
  'suites/demo/failures.yaml',
  'suites/faults/green-but-broken',
  'suites/faults/pipeline-hooks.yaml',
  'suites/faults/permissions-rules-and-modes.yaml',
  'suites/faults/loop-identical-call-loop.yaml',
  'suites/faults/protocol',
  'suites/controls/loop-lookalikes.yaml',
];

interface Line {
  seq: number;
  event: string;
  session_id?: string;
  task_id?: string;
}

function traceFacts(file: string) {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);
  const perType: Record<string, number> = {};
  const perTask = new Map<string, string[]>();
  for (const e of lines) {
    perType[e.event] = (perType[e.event] ?? 0) + 1;
    if (e.task_id !== undefined) perTask.set(e.task_id, [...(perTask.get(e.task_id) ?? []), e.event]);
  }
  return { seqs: lines.map((e) => e.seq), first: lines[0]?.event, last: lines.at(-1)?.event, perType, perTask: Object.fromEntries([...perTask].sort().map(([id, names]) => [id, turns(names)])) };
}

/**
 * A session's events turn by turn (cut at each model_request), in order; within a turn sorted, because
 * tool calls run in parallel settle in whichever order they finish, on one thread as on several.
 */
function turns(names: string[]): string[] {
  const out: string[][] = [[]];
  for (const name of names) {
    if (name === 'model_request') out.push([]);
    out.at(-1)!.push(name);
  }
  return out.map((turn) => [turn[0], ...turn.slice(1).sort()].join(' '));
}

interface RunJson {
  passed: number;
  failed: number;
  tasks: { task_id: string; outcome: string; stop: string; checks: { id: string; ok: boolean }[] }[];
}

// Tasks that fail and err on purpose, beside the shipped suites' passing ones.
const OWN = `suite: own
tasks:
  - id: own-fails
    prompt: go
    tools: [read]
    files: { a.txt: hi }
    script:
      - tool_use: [{ name: read, input: { file_path: a.txt } }]
      - text: not what was asked
    expect: { answer: { contains: done }, files: { a.txt: { equals: bye } } }
  - id: own-errors
    prompt: go
    tools: [read]
    setup: exit 3
    script:
      - text: done
`;

async function runWith(workers: number, dir: string) {
  const trace = join(dir, `w${workers}.jsonl`);
  writeFileSync(join(dir, 'own.yaml'), OWN);
  const result = await cli(['run', ...SUITES, join(dir, 'own.yaml'), '--workers', String(workers), '-j', '8', '--json', '--out', trace], { env: { NO_COLOR: '1', TMPDIR: dir } });
  const json = JSON.parse(result.stdout) as RunJson;
  // In run order (task-major, as the summary keeps them whatever thread ran them).
  const outcomes = json.tasks.map((t) => ({ id: t.task_id, outcome: t.outcome, stop: t.stop, expectations: t.checks.map((e) => `${e.id}:${e.ok}`) }));
  return { code: result.code, stderr: result.stderr, outcomes, passed: json.passed, failed: json.failed, facts: traceFacts(trace) };
}

describe('faultline run --workers', () => {
  it('gives the same outcomes, events per type and per-session event order on 2 worker threads as on the main thread', async () => {
    const dir = tempDir();
    const one = await runWith(1, dir);
    const two = await runWith(2, dir);
    expect(one.outcomes.length).toBeGreaterThan(30);
    // The failing and erring tasks do so on both: exit 1 either way.
    expect(one.outcomes.filter((o) => o.outcome !== 'passed').map((o) => `${o.id}:${o.outcome}`)).toEqual(['own-fails:failed', 'own-errors:error']);
    expect(one.code).toBe(1);
    expect(two.code).toBe(one.code);
    expect(two.outcomes).toEqual(one.outcomes);
    expect(two.facts.perType).toEqual(one.facts.perType);
    expect(two.facts.perTask).toEqual(one.facts.perTask);
    // One writer numbers every line: 1..n, no gap, run_start first and run_end last.
    expect(two.facts.seqs).toEqual(two.facts.seqs.map((_, i) => i + 1));
    expect([two.facts.first, two.facts.last]).toEqual(['run_start', 'run_end']);
    // Every workspace is gone once the run ends.
    expect(readdirNames(dir)).toEqual([]);
  }, 300_000);

  it('reports a worker that dies as an internal error naming its task (exit 70), and the run still ends with run_end', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'exit-hook.mjs'), 'export function preToolUse(event) { if (event.tool === "write") process.exit(7); return {}; }\n');
    const tasks = Array.from(
      { length: 6 },
      (_, i) => `  - id: ${i === 3 ? 'dies' : `ok-${i}`}
    prompt: go
    tools: [read, write]
    ${i === 3 ? 'hooks: exit-hook.mjs' : ''}
    files: { a.txt: hi }
    script:
      - tool_use: [{ name: ${i === 3 ? 'write' : 'read'}, input: { file_path: a.txt${i === 3 ? ', content: x' : ''} } }]
      - text: done
`,
    );
    writeFileSync(join(dir, 'crash.yaml'), `suite: crash\ntasks:\n${tasks.join('')}`);
    const trace = join(dir, 'crash.jsonl');
    const result = await cli(['run', join(dir, 'crash.yaml'), '--workers', '2', '-j', '2', '--out', trace], { env: { NO_COLOR: '1', TMPDIR: dir } });
    expect(result.code).toBe(70);
    expect(result.stderr).toMatch(/internal error: worker \d stopped \(exit code 7\) while running (crash\/ok-\d, )?crash\/dies\n/);
    const facts = traceFacts(trace);
    expect(facts.last).toBe('run_end');
    // The session that was running ends as an error in the trace, not cut short.
    const dies = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"task_id":"dies"'))
      .map((l) => JSON.parse(l) as { event: string; session_id: string });
    expect(dies[0]).toMatchObject({ event: 'session_start' });
    expect(dies.at(-1)).toMatchObject({ event: 'session_end', outcome: 'error', stop: 'harness_error' });
    // Its model call happened (the hook runs on the call the first response asked for): the session_end carries the
    // turns and tokens of its events in the trace, and the report's token totals equal the model_response sums.
    const truth = modelUsage(trace);
    const died = truth.get(dies[0]!.session_id)!;
    expect(died.output_tokens + died.cache_write_tokens).toBeGreaterThan(0);
    expect(dies.at(-1)).toMatchObject({ turns: died.turns, input_tokens: died.input_tokens, output_tokens: died.output_tokens, cache_read_tokens: died.cache_read_tokens, cache_write_tokens: died.cache_write_tokens });
    const report = await cli(['report', trace, '--json'], { env: { NO_COLOR: '1', TMPDIR: dir } });
    expect(report.code, report.stderr).toBe(0);
    const json = JSON.parse(report.stdout) as { reports: Record<string, Record<string, { rows: Record<string, unknown>[] }>> };
    const summary = json.reports.sessions!.session_summary!.rows[0]!;
    const total = (field: keyof Usage) => [...truth.values()].reduce((n, u) => n + u[field], 0);
    expect(summary).toMatchObject({ turns: total('turns'), input_tokens: total('input_tokens'), output_tokens: total('output_tokens'), cache_read_tokens: total('cache_read_tokens'), cache_write_tokens: total('cache_write_tokens') });
    expect(readdirNames(dir).filter((f) => !f.startsWith('crash') && f !== 'exit-hook.mjs')).toEqual([]);
  }, 120_000);
});

describe('Ctrl-C during faultline run --workers 2', () => {
  it('second SIGINT aborts the sessions on every worker, removes their workspaces and worker directories, and ends the trace with run_end', async () => {
    const dir = tempDir();
    const suite = slowSuite(60_000);
    writeFileSync(join(dir, 'slow.yaml'), suite);
    const trace = join(dir, 'run.jsonl');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'run', join(dir, 'slow.yaml'), '--out', trace, '-j', '4', '--workers', '2'], {
      cwd: process.cwd(),
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, TMPDIR: dir, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const text = () => (existsSync(trace) ? readFileSync(trace, 'utf8') : '');
    const count = (event: string) => text().split('\n').filter((l) => l.includes(`"event":"${event}"`)).length;
    // Four sessions sleeping, spread over both workers (each wrote its file, so each has a workspace).
    const deadline = Date.now() + 240_000;
    while (count('tool_call') < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(count('session_start')).toBe(4);
    child.kill('SIGINT');
    while (!stderr.includes('Ctrl-C again') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('aborting 4 running tasks');
    const events = text()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { event: string; outcome?: string; seq: number });
    expect(events.filter((e) => e.event === 'session_end').map((e) => e.outcome)).toEqual(['aborted', 'aborted', 'aborted', 'aborted']);
    expect(events.at(-1)).toMatchObject({ event: 'run_end', sessions: 4, aborted: 4 });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    // No workspace and no worker directory left (tsx keeps its compile cache in TMPDIR).
    expect(readdirSync(dir).filter((f) => !/\.(jsonl|yaml)$/.test(f) && !f.startsWith('tsx-'))).toEqual([]);
  }, 300_000);
});

interface Usage {
  turns: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

/** The ground truth from the model calls: per session, the highest turn of its turn events and its model_response tokens summed. */
function modelUsage(file: string): Map<string, Usage> {
  const out = new Map<string, Usage>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    const e = JSON.parse(line) as Partial<Usage> & { event: string; session_id?: string; turn?: number };
    if (e.session_id === undefined) continue;
    const u = out.get(e.session_id) ?? { turns: 0, input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
    out.set(e.session_id, u);
    if (e.turn !== undefined) u.turns = Math.max(u.turns, e.turn);
    if (e.event !== 'model_response') continue;
    for (const f of ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens'] as const) u[f] += e[f]!;
  }
  return out;
}

/** What the runs left in their TMPDIR besides the traces and suites this file wrote: workspaces. */
function readdirNames(dir: string): string[] {
  return readdirSync(dir).filter((f) => !/\.(jsonl|yaml|mjs)$/.test(f));
}
