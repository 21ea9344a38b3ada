import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bashTool, formatResult } from './bash.js';
import { noSandbox } from '../sandbox/sandbox.js';
import { context, makeWorkspace, removeWorkspaces } from './test-helpers.js';

/** These tests read host pids (`$$`, `$!`), so the command runs without a PID namespace of its own (the process group and the /proc tracker are what they check). */
const hostPids = (ws: string, signal?: AbortSignal) => ({ ...context(ws, signal), sandbox: noSandbox(undefined, { pidNamespace: false }) });

afterEach(removeWorkspaces);

/** True while a process with this pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilDead(pid: number, withinMs: number): Promise<boolean> {
  const end = Date.now() + withinMs;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !alive(pid);
}

describe('bash', () => {
  it('runs in the workspace and returns stdout and stderr', async () => {
    const ws = await makeWorkspace({ 'marker.txt': 'here' });
    const out = await bashTool.execute({ command: 'cat marker.txt; echo " err" >&2' }, context(ws));
    expect(out.isError).toBeUndefined();
    expect(out.content).toBe('here err');
  });

  it('says explicitly when a successful command printed nothing', async () => {
    const ws = await makeWorkspace();
    const out = await bashTool.execute({ command: 'true' }, context(ws));
    expect(out).toEqual({ content: '(command exited 0 with no output)', empty: true });
  });

  it('reports a non-zero exit as a tool error exit_N with output and code', async () => {
    const ws = await makeWorkspace();
    const out = await bashTool.execute({ command: 'echo failing test; exit 3' }, context(ws));
    expect(out).toEqual({ content: 'failing test\n\n(command exited with code 3)', isError: true, errorCode: 'exit_3' });
  });

  it('reports a process killed by a signal as signal_<NAME>', async () => {
    const ws = await makeWorkspace();
    const out = await bashTool.execute({ command: 'kill -KILL $$' }, context(ws));
    expect(out).toMatchObject({ isError: true, errorCode: 'signal_SIGKILL' });
  });

  it('kills the process group on its own timeout, well before sleep 30 ends', async () => {
    const ws = await makeWorkspace();
    const started = Date.now();
    const out = await bashTool.execute({ command: 'echo $$ > pid; echo started; sleep 30; echo never', timeout_ms: 300 }, hostPids(ws));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(out).toMatchObject({ isError: true, errorCode: 'timeout' });
    expect(out.content).toContain('started');
    expect(out.content).toContain('timed out after 300 ms');
    expect(out.content).not.toContain('never');
    const pid = Number((await readFile(join(ws, 'pid'), 'utf8')).trim());
    expect(await waitUntilDead(pid, 3000)).toBe(true);
  });

  it('kills grandchildren too, not only bash', async () => {
    const ws = await makeWorkspace();
    const out = await bashTool.execute({ command: '(sleep 30 & echo $! > child; wait)', timeout_ms: 300 }, hostPids(ws));
    expect(out.errorCode).toBe('timeout');
    const child = Number((await readFile(join(ws, 'child'), 'utf8')).trim());
    expect(await waitUntilDead(child, 3000)).toBe(true);
  });

  it('stops the command quickly when the signal aborts', async () => {
    const ws = await makeWorkspace();
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200);
    const out = await bashTool.execute({ command: 'echo $$ > pid; sleep 30' }, hostPids(ws, controller.signal));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(out).toMatchObject({ isError: true, errorCode: 'aborted' });
    const pid = Number((await readFile(join(ws, 'pid'), 'utf8')).trim());
    expect(await waitUntilDead(pid, 3000)).toBe(true);
  });

  it('does not start the command when the signal is already aborted', async () => {
    const ws = await makeWorkspace();
    const controller = new AbortController();
    controller.abort();
    const out = await bashTool.execute({ command: 'touch ran' }, context(ws, controller.signal));
    expect(out.errorCode).toBe('aborted');
    await expect(readFile(join(ws, 'ran'))).rejects.toThrow();
  });

  it('does not wait for a background job that keeps the output pipe open', async () => {
    const ws = await makeWorkspace();
    const started = Date.now();
    const out = await bashTool.execute({ command: 'sleep 30 & echo done' }, context(ws));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(out.content).toBe('done');
  });

  it('kills what the command left running in the background when the call returns', async () => {
    const ws = await makeWorkspace();
    const out = await bashTool.execute({ command: 'sleep 300 & echo $!' }, hostPids(ws));
    const pid = Number(out.content);
    expect(pid).toBeGreaterThan(0);
    expect(await waitUntilDead(pid, 2000)).toBe(true);
  });

  it('limits timeout_ms to 600000 in its schema', () => {
    expect(bashTool.inputSchema.safeParse({ command: 'x', timeout_ms: 600_001 }).success).toBe(false);
    expect(bashTool.inputSchema.safeParse({ command: 'x', timeout_ms: 600_000 }).success).toBe(true);
  });

  it('is not read-only as a tool, but concurrency-safe per call for read-only command lines only', () => {
    expect(bashTool.readOnly).toBe(false);
    expect(bashTool.isConcurrencySafe({ command: 'ls' })).toBe(true);
    expect(bashTool.isConcurrencySafe({ command: 'ls > listing.txt' })).toBe(false);
    expect(bashTool.isConcurrencySafe({ command: 'rm -rf build' })).toBe(false);
  });
});

describe('formatResult', () => {
  const base = { output: '', exitCode: 0, signalName: null, stoppedBy: null, discardedBytes: 0 } as const;

  it('says when a failing command printed nothing', () => {
    expect(formatResult({ ...base, exitCode: 1 }, 1000)).toEqual({
      content: '(command exited with code 1 and no output)',
      isError: true,
      errorCode: 'exit_1',
    });
  });

  it('notes discarded output beyond the capture limit', () => {
    expect(formatResult({ ...base, output: 'head', discardedBytes: 42 }, 1000).content).toContain('42 more bytes were discarded');
  });
});

describe('formatResult: the per-call limits', () => {
  const base = { output: 'partial', exitCode: null, signalName: null, discardedBytes: 0 } as const;

  it('a memory_limit kill says what was measured and the bound', () => {
    const out = formatResult({ ...base, stoppedBy: 'memory_limit', limit: { measured: 300 * 1024 ** 2, bound: 64 * 1024 ** 2 } }, 1000);
    expect(out).toMatchObject({ isError: true, errorCode: 'memory_limit' });
    expect(out.content).toContain('partial\n\n(command killed: its processes held more than 64 MiB of memory together (300 MiB resident, measured).');
  });

  it('a process_limit kill names the bound the call had', () => {
    const out = formatResult({ ...base, stoppedBy: 'process_limit', limit: { measured: 65, bound: 64 } }, 1000);
    expect(out).toMatchObject({ isError: true, errorCode: 'process_limit' });
    expect(out.content).toContain('more than 64 processes at once');
  });
});
