/**
 * Item 1 of issue 29: `diff --fail-on-regression` is a regression gate. A
 * scripted task that passed in the base and fails in the candidate is named
 * with its failing expectation and fails the gate; tasks on one side only are
 * listed, not regressions; on live runs the pass-rate significance test
 * decides, and a flip alone does not (unless --flips always).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';
import { cli } from './cli-io.js';

const task = (id: string, says: string, expects: string) => `  - id: ${id}
    prompt: answer
    script:
      - text: ${says}
    expect: { answer: { contains: ${expects} } }
`;

async function runSuite(dir: string, name: string, tasks: string[], extra: string[] = []): Promise<string> {
  const suite = join(dir, `${name}.yaml`);
  writeFileSync(suite, `suite: gate\ntasks:\n${tasks.join('')}`);
  const trace = join(dir, `${name}.jsonl`);
  const r = await cli(['run', suite, '--out', trace, ...extra], { env: { NO_COLOR: '1', TMPDIR: dir } });
  expect(r.stderr).toBe('');
  return trace;
}

describe('diff --fail-on-regression on scripted runs', () => {
  it('names a task that flipped PASS -> FAIL with its failing expectation and exits 1', async () => {
    const dir = tempDir();
    const base = await runSuite(dir, 'base', [task('alpha', 'hello', 'hello'), task('beta', 'goodbye', 'goodbye'), task('gamma', 'ok', 'ok')]);
    // The candidate changed beta's answer (it now fails), dropped gamma and added delta.
    const cand = await runSuite(dir, 'cand', [task('alpha', 'hello', 'hello'), task('beta', 'farewell', 'goodbye'), task('delta', 'new', 'new')]);

    const gate = await cli(['diff', base, cand, '--fail-on-regression']);
    expect(gate.code).toBe(1);
    const regressions = gate.stdout.slice(gate.stdout.indexOf('Regressions'), gate.stdout.indexOf('\nTasks'));
    expect(regressions.replace(/\s+/g, ' ')).toContain('✗ task beta: PASS → FAIL (1 of 1 passed → 0 of 1 passed): answer.0: answer contains "goodbye"; answer was: farewell');
    // Only beta is a regression: alpha held, gamma and delta sit on one side only.
    expect(regressions.match(/✗/g)).toHaveLength(1);
    const tasks = gate.stdout.replace(/\s+/g, ' ');
    expect(tasks).toContain('2 compared on both sides: 1 PASS → FAIL, 0 FAIL → PASS, 0 failing on both');
    expect(tasks).toContain('only in candidate (new tasks; not a regression): delta');
    expect(tasks).toContain('only in base (not run in the candidate; not a regression): gamma');

    // Without the flag the diff reports and exits 0; the JSON names the flip too.
    const json = await cli(['diff', base, cand, '--json']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { tasks: { flipped: { task_id: string; why: string }[]; scripted: unknown }; regressions: string[] };
    expect(parsed.tasks.scripted).toEqual({ base: true, candidate: true });
    expect(parsed.tasks.flipped).toEqual([expect.objectContaining({ task_id: 'beta', why: 'answer.0: answer contains "goodbye"; answer was: farewell' })]);

    // The candidate against itself: nothing flipped, the gate passes.
    expect((await cli(['diff', cand, cand, '--fail-on-regression'])).code).toBe(0);
    // The fix direction is not a regression.
    const fixed = await cli(['diff', cand, base, '--fail-on-regression']);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('FAIL → PASS: beta');
  }, 60_000);

  it('compares a task\'s repeats as one group (pass^k) and names the flip in a 3-task suite', async () => {
    const dir = tempDir();
    const base = await runSuite(dir, 'base', [task('a', 'x', 'x'), task('b', 'y', 'y'), task('c', 'z', 'z')], ['--repeat', '2']);
    const cand = await runSuite(dir, 'cand', [task('a', 'x', 'x'), task('b', 'y', 'y'), task('c', 'no', 'z')], ['--repeat', '2']);
    const gate = await cli(['diff', base, cand, '--fail-on-regression']);
    expect(gate.code).toBe(1);
    expect(gate.stdout.replace(/\s+/g, ' ')).toContain('task c: PASS → FAIL (2 of 2 passed → 0 of 2 passed): answer.0: answer contains "z"; answer was: no');
  }, 60_000);
});

// A live-style trace: run_start names a live provider; `tasks` tasks run `k` times, pass(t, r) says which session passed.
function liveTrace(dir: string, name: string, tasks: number, k: number, pass: (t: number, r: number) => boolean): string {
  let seq = 0;
  const runId = `run-${name}`;
  const ev = (event: string, f: Record<string, unknown>) => JSON.stringify({ v: 1, ts: 1_700_000_000_000 + seq, seq: seq++, run_id: runId, event, ...f });
  const lines = [ev('run_start', { suite: 'live', provider: 'anthropic', model: 'claude-sonnet-4-5', faultline_version: '0.0.0', node_version: 'v20', config_hash: 'h', tasks })];
  for (let t = 0; t < tasks; t++) {
    for (let r = 0; r < k; r++) {
      const s = { session_id: `${runId}.${t}.${r}`, task_id: `task-${t}` };
      const ok = pass(t, r);
      lines.push(ev('session_start', { ...s, scenario: null, repeat: r, defenses_armed: [], tools: ['read'], deferred_tools: [], permission_mode: 'default', headless: true }));
      lines.push(ev('expectation', { ...s, id: 'answer.0', ok, detail: ok ? 'ok' : 'answer contains "done"; answer was: gave up' }));
      lines.push(ev('session_end', { ...s, outcome: ok ? 'passed' : 'failed', stop: 'end_turn', turns: 1, input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0, duration_ms: 10 }));
    }
  }
  lines.push(ev('run_end', { sessions: tasks * k, passed: 0, failed: 0, errored: 0, aborted: 0, duration_ms: 1 }));
  const path = join(dir, `${name}.jsonl`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe('diff --fail-on-regression on live runs', () => {
  it('fails on a significant pass-rate drop even when no task flips (every task failed pass^k on both sides)', async () => {
    const dir = tempDir();
    // 10 tasks x 5 repeats: 3 of 5 pass per task in the base (60%), 1 of 5 in the candidate (20%).
    const base = liveTrace(dir, 'base', 10, 5, (_t, r) => r < 3);
    const cand = liveTrace(dir, 'cand', 10, 5, (_t, r) => r < 1);
    const gate = await cli(['diff', base, cand, '--fail-on-regression']);
    expect(gate.code).toBe(1);
    expect(gate.stdout).toContain('pass rate fell from 60.0% to 20.0%');
    expect(gate.stdout.replace(/\s+/g, ' ')).toContain('10 compared on both sides: 0 PASS → FAIL, 0 FAIL → PASS, 10 failing on both');
  });

  it('lists a live flip without failing on it; the pass-rate test decides unless --flips always', async () => {
    const dir = tempDir();
    // One task of 10 fails one repeat of 5: pass^k flips for task-3, the pass rate goes 100% -> 98% (noise).
    const base = liveTrace(dir, 'base', 10, 5, () => true);
    const cand = liveTrace(dir, 'cand', 10, 5, (t, r) => !(t === 3 && r === 4));
    const gate = await cli(['diff', base, cand, '--fail-on-regression']);
    expect(gate.code).toBe(0);
    const text = gate.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('Regressions none');
    expect(text).toContain('a live or imported side: flips are listed, not regressions on their own');
    expect(text).toContain('! task task-3: PASS → FAIL (5 of 5 passed → 4 of 5 passed): answer.0: answer contains "done"; answer was: gave up');
    const always = await cli(['diff', base, cand, '--fail-on-regression', '--flips', 'always']);
    expect(always.code).toBe(1);
    expect(always.stdout).toContain('✗ task task-3: PASS → FAIL');
  });

  it('does not compare a task whose outcome the source did not record', async () => {
    const dir = tempDir();
    const base = liveTrace(dir, 'base', 2, 1, () => true);
    const cand = join(dir, 'cand.jsonl');
    // The same sessions with no outcome recorded (an imported trace's source may not have one).
    writeFileSync(cand, readFileSync(liveTrace(dir, 'failed', 2, 1, () => false), 'utf8').replace(/"outcome":"failed"/g, '"outcome":null'));
    const gate = await cli(['diff', base, cand, '--fail-on-regression', '--flips', 'always']);
    expect(gate.code).toBe(0);
    expect(gate.stdout.replace(/\s+/g, ' ')).toContain('not compared (a side has no ended session with an outcome: cut short, or not recorded by the source): task-0, task-1');
  });
});
