/**
 * The three cancel sources (docs/harness-rules.md#bash-cascade, docs/harness-rules.md#cancel-sources) through the whole harness:
 * bash cascade (later bash only, the turn goes on), user abort (everything
 * stops, every call still gets a result) and a call's own timeout (that call
 * only) — each logged with its own failure_kind / error_code.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScheduler } from '../../src/harness/schedule/scheduler.js';
import { bashTool } from '../../src/harness/tools/bash.js';
import { sleepTool } from '../../src/harness/tools/fault-tools.js';
import { readTool } from '../../src/harness/tools/read.js';
import { writeTool } from '../../src/harness/tools/write.js';
import { run } from './harness.js';

const failures = (r: Awaited<ReturnType<typeof run>>) => r.of('tool_failure').map((e) => [e.tool, e.failure_kind, e.error_code]);

describe('bash cascade', () => {
  const script = [
    {
      tool_use: [
        { name: 'bash', input: { command: 'mkdir build/out' } }, // fails: no build/
        { name: 'read', input: { file_path: 'a.txt' } },
        { name: 'bash', input: { command: 'echo built > build/out/bin' } },
        { name: 'bash', input: { command: 'echo second > second.txt' } },
      ],
    },
    { text: 'The build directory is missing.' },
  ];

  it('skips the later bash calls of the turn after a bash fails, runs the read, and the turn goes on', async () => {
    const r = await run(script, { tools: [bashTool, readTool], files: { 'a.txt': 'x\n' } });
    expect(failures(r)).toEqual([
      ['bash', 'tool_error', 'exit_1'],
      ['bash', 'cascade_skipped', 'cascade'],
      ['bash', 'cascade_skipped', 'cascade'],
    ]);
    expect(r.of('tool_success').map((e) => e.tool)).toEqual(['read']);
    expect(existsSync(join(r.workspace, 'second.txt'))).toBe(false);
    expect(r.results()[2]!.content).toMatch(/earlier bash command in this turn failed/);
    expect(r.result.stop).toBe('end_turn');
  });

  it('runs the later bash calls when the cascade is switched off (so the test above can fail)', async () => {
    const r = await run(script, { tools: [bashTool, readTool], files: { 'a.txt': 'x\n' }, scheduler: createScheduler({ cascade: false }) });
    expect(r.of('tool_failure').filter((e) => e.failure_kind === 'cascade_skipped')).toHaveLength(0);
    expect(existsSync(join(r.workspace, 'second.txt'))).toBe(true);
  });

  it('does not cascade from a failing read', async () => {
    const r = await run(
      [{ tool_use: [{ name: 'read', input: { file_path: 'missing.txt' } }, { name: 'bash', input: { command: 'echo ok > ok.txt' } }] }, { text: 'ok' }],
      { tools: [bashTool, readTool] },
    );
    expect(existsSync(join(r.workspace, 'ok.txt'))).toBe(true);
  });
});

describe('three cancel sources stay distinct', () => {
  it('cascade: a failing read-only bash stops a later bash running beside it, not the sleep or the turn', async () => {
    const r = await run(
      [
        {
          tool_use: [
            { name: 'sleep', input: { ms: 150 } },
            { name: 'bash', input: { command: 'ls no-such-dir' } },
            { name: 'bash', input: { command: 'sleep 5' } },
          ],
        },
        { text: 'ok' },
      ],
      { tools: [bashTool, sleepTool] },
    );
    expect(r.of('tool_call').map((e) => e.batch)).toEqual([0, 0, 0]);
    expect(failures(r)).toEqual([
      ['bash', 'tool_error', 'exit_2'],
      ['bash', 'aborted', 'cascade'],
    ]);
    expect(r.of('tool_success').map((e) => e.tool)).toEqual(['sleep']);
    const stopped = r.of('tool_failure')[1]!;
    expect(stopped.duration_ms).toBeLessThan(4_000);
    expect(r.result.stop).toBe('end_turn');
  });

  it('own timeout: only the slow call fails, its sibling succeeds and the turn goes on', async () => {
    const r = await run(
      [{ tool_use: [{ name: 'sleep', input: { ms: 5_000 } }, { name: 'sleep', input: { ms: 20 } }] }, { text: 'ok' }],
      { tools: [sleepTool], config: { toolTimeoutMs: 150 } },
    );
    expect(failures(r)).toEqual([['sleep', 'timeout', 'timeout']]);
    expect(r.of('tool_success')).toHaveLength(1);
    expect(r.result.stop).toBe('end_turn');
  });

  it('user abort: running calls stop, waiting calls never start, every call gets a result and the session ends aborted', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort('user'), 250);
    const r = await run(
      [
        {
          tool_use: [
            { name: 'sleep', input: { ms: 5_000 } },
            { name: 'sleep', input: { ms: 5_000 } },
            { name: 'write', input: { file_path: 'late.txt', content: 'x' } },
          ],
        },
        { text: 'never reached' },
      ],
      { tools: [sleepTool, writeTool], signal: abort.signal },
    );
    expect(failures(r)).toEqual([
      ['sleep', 'aborted', 'user_abort'],
      ['sleep', 'aborted', 'user_abort'],
      ['write', 'aborted', 'not_started'],
    ]);
    expect(r.results()).toHaveLength(3);
    expect(existsSync(join(r.workspace, 'late.txt'))).toBe(false);
    expect(r.result.stop).toBe('aborted');
  });
});
