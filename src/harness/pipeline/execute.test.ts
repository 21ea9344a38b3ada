import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tool, ToolContext, ToolOutput } from '../tools/tool.js';
import { executeTool } from './execute.js';
import { SessionStops } from './session-stops.js';

function tool(execute: (input: unknown, context: ToolContext) => Promise<ToolOutput>): Tool {
  return { name: 't', description: 'test tool', inputSchema: z.unknown(), readOnly: true, isConcurrencySafe: () => true, execute };
}
const never = () => new AbortController().signal;
const run = (t: Tool, o: { session?: AbortSignal; cascade?: AbortSignal; timeoutMs?: number } = {}) =>
  executeTool(t, {}, { workspace: '/ws', sessionSignal: o.session ?? never(), cascadeSignal: o.cascade, timeoutMs: o.timeoutMs ?? 5_000 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits until its signal fires and reports the reason it saw. */
const waitsForSignal = (seen: unknown[]) =>
  tool((_, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => (seen.push(signal.reason), resolve({ content: 'stopped late' })))));

describe('executeTool', () => {
  it('tells ok, tool_error and exception apart and gives the tool its workspace', async () => {
    expect(await run(tool(async (_, c) => ({ content: c.workspace })))).toEqual({ kind: 'ok', output: { content: '/ws' } });
    expect(await run(tool(async () => ({ content: 'no', isError: true })))).toMatchObject({ kind: 'tool_error' });
    expect(await run(tool(async () => Promise.reject(new Error('bug'))))).toMatchObject({ kind: 'exception' });
    expect(
      await run(
        tool(() => {
          throw new Error('sync bug');
        }),
      ),
    ).toMatchObject({ kind: 'exception' });
  });

  it('starts the timeout again on each progress report, and times out once the reports stop', async () => {
    const reporting = (reports: number) =>
      tool(async (_, context) => {
        for (let i = 0; i < reports; i++) {
          await sleep(50);
          context.progress?.();
        }
        await sleep(50);
        return { content: `after ${reports} reports` };
      });
    // 12 x 50 ms of work under a 500 ms timeout: only the progress reports keep it alive.
    expect(await run(reporting(11), { timeoutMs: 500 })).toEqual({ kind: 'ok', output: { content: 'after 11 reports' } });
    const silent = tool(async () => (await sleep(600), { content: 'late' }));
    expect(await run(silent, { timeoutMs: 500 })).toEqual({ kind: 'timeout', timeoutMs: 500 });
  });

  it('ignores progress after the call was stopped', async () => {
    let report: (() => void) | undefined;
    const outcome = await run(
      tool((_, context) => ((report = () => context.progress?.()), new Promise(() => undefined))),
      { timeoutMs: 20 },
    );
    expect(outcome).toEqual({ kind: 'timeout', timeoutMs: 20 });
    expect(() => report?.()).not.toThrow();
  });

  it('times out a tool that ignores its signal, without waiting for it', async () => {
    const started = performance.now();
    expect(await run(tool(() => new Promise(() => undefined)), { timeoutMs: 20 })).toEqual({ kind: 'timeout', timeoutMs: 20 });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('aborts the signal the tool holds with the cause that fired: timeout, user abort or cascade', async () => {
    const seen: unknown[] = [];
    expect(await run(waitsForSignal(seen), { timeoutMs: 20 })).toMatchObject({ kind: 'timeout' });
    const session = new AbortController();
    const user = run(waitsForSignal(seen), { session: session.signal });
    session.abort();
    expect(await user).toEqual({ kind: 'aborted', cause: 'user' });
    const cascade = new AbortController();
    const cascaded = run(waitsForSignal(seen), { cascade: cascade.signal });
    cascade.abort('cascade');
    expect(await cascaded).toEqual({ kind: 'aborted', cause: 'cascade' });
    expect(seen).toEqual(['timeout', 'aborted', 'cascade']);
  });

  it('keeps the first stop: a signal read only after it is already aborted with that reason', async () => {
    const session = new AbortController();
    let late: AbortSignal | null = null;
    const outcome = await run(
      tool(async (_, context) => {
        await sleep(60); // the timer fires, then the session aborts, then the tool looks
        session.abort();
        late = context.signal;
        return { content: 'done anyway' };
      }),
      { session: session.signal, timeoutMs: 10 },
    );
    expect(outcome).toEqual({ kind: 'timeout', timeoutMs: 10 });
    await sleep(70);
    expect(late).not.toBeNull();
    expect([late!.aborted, late!.reason]).toEqual([true, 'timeout']);
  });

  it('does not start a call whose session or cascade signal already fired', async () => {
    let ran = false;
    const body = tool(async () => ((ran = true), { content: 'x' }));
    expect(await run(body, { session: AbortSignal.abort() })).toEqual({ kind: 'aborted', cause: 'user' });
    expect(await run(body, { cascade: AbortSignal.abort() })).toEqual({ kind: 'cascade_skipped' });
    expect(ran).toBe(false);
  });

  it('leaves no listener behind on the session and cascade signals', async () => {
    const session = new AbortController();
    const cascade = new AbortController();
    for (let i = 0; i < 5; i++) await run(tool(async () => ({ content: 'x' })), { session: session.signal, cascade: cascade.signal });
    await run(tool(() => new Promise(() => undefined)), { session: session.signal, cascade: cascade.signal, timeoutMs: 5 });
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(cascade.signal, 'abort')).toHaveLength(0);
  });

  it('with a turn hub: one session listener for any number of running calls, and an abort still stops each of them', async () => {
    const session = new AbortController();
    const stops = new SessionStops(session.signal);
    const seen: unknown[] = [];
    const running = Array.from({ length: 12 }, () =>
      executeTool(waitsForSignal(seen), {}, { workspace: '/ws', sessionSignal: session.signal, timeoutMs: 5_000, sessionStops: stops }),
    );
    await sleep(5);
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(1);
    session.abort();
    expect(await Promise.all(running)).toEqual(Array.from({ length: 12 }, () => ({ kind: 'aborted', cause: 'user' })));
    expect(seen).toEqual(Array.from({ length: 12 }, () => 'aborted'));
    stops.close();
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });

  it('lets a tool with interruptBehavior block run to the end through a user abort; the same tool without it is stopped', async () => {
    const finishes = (behavior?: 'block' | 'cancel'): Tool => ({
      ...tool(async (_, { signal }) => {
        await sleep(80);
        return { content: signal.aborted ? 'saw the abort' : 'completed' };
      }),
      ...(behavior ? { interruptBehavior: behavior } : {}),
    });
    for (const withHub of [false, true]) {
      const session = new AbortController();
      const stops = withHub ? new SessionStops(session.signal) : undefined;
      const options = { workspace: '/ws', sessionSignal: session.signal, timeoutMs: 5_000, ...(stops ? { sessionStops: stops } : {}) };
      const blocked = executeTool(finishes('block'), {}, options);
      const cancelled = executeTool(finishes('cancel'), {}, options);
      const plain = executeTool(finishes(), {}, options);
      await sleep(10);
      session.abort();
      expect(await blocked).toEqual({ kind: 'ok', output: { content: 'completed' } });
      expect(await cancelled).toEqual({ kind: 'aborted', cause: 'user' });
      expect(await plain).toEqual({ kind: 'aborted', cause: 'user' });
      stops?.close();
      expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
    }
    // Not started before the abort: not started, block or not; and its own timeout still applies.
    expect(await run(finishes('block'), { session: AbortSignal.abort() })).toEqual({ kind: 'aborted', cause: 'user' });
    expect(await run({ ...finishes('block'), execute: () => new Promise(() => undefined) }, { timeoutMs: 20 })).toEqual({ kind: 'timeout', timeoutMs: 20 });
  });

  it('ignores a hub that belongs to another signal and listens itself', async () => {
    const session = new AbortController();
    const other = new SessionStops(new AbortController().signal);
    const running = executeTool(waitsForSignal([]), {}, { workspace: '/ws', sessionSignal: session.signal, timeoutMs: 5_000, sessionStops: other });
    session.abort();
    expect(await running).toEqual({ kind: 'aborted', cause: 'user' });
  });
});
