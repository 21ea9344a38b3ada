import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './cli-io.js';
import { tempDir } from '../helpers/temp-dirs.js';

const tmp = () => tempDir('faultline-cli-');

describe('faultline run', () => {
  it('runs the demo suite, exits 0 and writes a trace where every tool_call is settled exactly once', async () => {
    const out = join(tmp(), 'demo.jsonl');
    const { code, stdout } = await cli(['run', 'suites/demo', '--out', out, '-j', '3']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/11 passed, 0 failed/);
    const events = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const calls = events.filter((e) => e.event === 'tool_call').map((e) => e.tool_use_id);
    const settled = events.filter((e) => e.event === 'tool_success' || e.event === 'tool_failure').map((e) => `${e.session_id}/${e.tool_use_id}`);
    const callKeys = events.filter((e) => e.event === 'tool_call').map((e) => `${e.session_id}/${e.tool_use_id}`);
    expect(calls.length).toBeGreaterThan(10);
    for (const key of callKeys) expect(settled.filter((s) => s === key)).toHaveLength(1);
    expect(settled).toHaveLength(callKeys.length);
    expect(events[0]).toMatchObject({ event: 'run_start', provider: 'mock', tasks: 11 });
    expect(events.at(-1)).toMatchObject({ event: 'run_end', sessions: 11, passed: 11 });

    const validated = await cli(['validate', out]);
    expect(validated.code).toBe(0);
    expect(validated.stderr).toBe('');
  });

  it('exits 1 and names the failed check when a task expectation fails', async () => {
    const dir = tmp();
    const suite = join(dir, 'bad.yaml');
    writeFileSync(suite, 'tasks:\n  - id: wrong-answer\n    prompt: hi\n    script: [{ text: "no" }]\n    expect:\n      answer: { contains: "yes" }\n');
    const { code, stdout } = await cli(['run', suite, '--out', join(dir, 't.jsonl')]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/✗ wrong-answer answer\.0: answer contains "yes"; answer was: no/);
    expect(stdout).toMatch(/0 passed, 1 failed/);
  });

  it('exits 2 with file:line:col on one line for an invalid suite', async () => {
    const dir = tmp();
    const suite = join(dir, 'broken.yaml');
    writeFileSync(suite, 'tasks:\n  - id: x\n    prompt: hi\n    max_turns: zero\n    script: [{ text: a }]\n');
    const { code, stderr } = await cli(['run', suite]);
    expect(code).toBe(2);
    expect(stderr).toBe(`faultline: invalid suite: ${suite}:4:16: tasks.0.max_turns: Invalid input: expected number, received string\n`);
  });

  it('prints help for every command', async () => {
    for (const args of [['--help'], ['run', '--help'], ['validate', '--help']]) {
      const { code, stdout } = await cli(args);
      expect(code).toBe(0);
      expect(stdout).toMatch(/Usage: faultline/);
    }
  });
});

describe('faultline validate', () => {
  it('reports a torn last line, a non-JSON line and a schema-violating line with their line numbers, and exits 1', async () => {
    const file = join(tmp(), 'bad.jsonl');
    const good = { v: 1, ts: 1, seq: 1, event: 'defense_stats', run_id: 'r', session_id: 's', task_id: 't', defense: 'denial_fuse', evaluated: 1, triggered: 0 };
    writeFileSync(
      file,
      [JSON.stringify(good), 'not json at all', JSON.stringify({ ...good, seq: 3, evaluated: -1 }), JSON.stringify(good), '{"v":1,"ts":5,"se'].join('\n'),
    );
    const { code, stderr, stdout } = await cli(['validate', file]);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${file}:2: not JSON: `)),
      expect.stringMatching(new RegExp(`^${file}:3: defense_stats: evaluated: `)),
      `${file}:5: torn last line (no trailing newline, not valid JSON)`,
    ]);
    expect(stdout).toContain('5 lines, 2 valid, 3 bad');
  });
});
