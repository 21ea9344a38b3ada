import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { descriptorsHeld } from '../safe-fs/fd-budget.js';
import type { Tool } from '../tools/tool.js';
import { callLease, isDescriptorShortage, runWithinShortage } from './call-descriptors.js';
import type { ExecOutcome } from './execute.js';

function tool(over: Partial<Tool>): Tool {
  return { name: 't', description: 'd', inputSchema: z.object({}), readOnly: false, isConcurrencySafe: () => false, execute: async () => ({ content: '' }), ...over };
}

const emfile: ExecOutcome = { kind: 'exception', error: Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' }) };
const ok: ExecOutcome = { kind: 'ok', output: { content: 'done' } };

/** A body that fails for want of descriptors `failures` times, then succeeds; counts its runs. */
function flaky(failures: number) {
  let runs = 0;
  return { body: async () => (runs++ < failures ? emfile : ok), runs: () => runs };
}

async function lease(t: Tool) {
  const l = callLease(t);
  return l instanceof Promise ? await l : l;
}

describe('a call and the descriptor budget', () => {
  it('runs a read-only call again after a shortage of the harness, so the model never sees it', async () => {
    const t = tool({ readOnly: true });
    const f = flaky(2);
    const ran = await runWithinShortage(t, await lease(t), f.body, new AbortController().signal);
    ran.lease.release();
    expect(ran.outcome).toEqual(ok);
    expect(f.runs()).toBe(3);
    expect(descriptorsHeld()).toBe(0);
  });

  it('runs again a changing call whose descriptors are all opened before its commit (opensBeforeEffects)', async () => {
    const t = tool({ opensBeforeEffects: true, descriptors: 8 });
    const f = flaky(1);
    const ran = await runWithinShortage(t, await lease(t), f.body, new AbortController().signal);
    expect(descriptorsHeld()).toBe(8);
    ran.lease.release();
    expect(ran.outcome).toEqual(ok);
    expect(f.runs()).toBe(2);
  });

  it('never runs twice a call that may have changed something before its shortage', async () => {
    const t = tool({});
    const f = flaky(1);
    const ran = await runWithinShortage(t, await lease(t), f.body, new AbortController().signal);
    ran.lease.release();
    expect(ran.outcome).toBe(emfile);
    expect(f.runs()).toBe(1);
  });

  it('knows EMFILE and ENFILE, thrown or reported, and nothing else', () => {
    expect(isDescriptorShortage(emfile)).toBe(true);
    expect(isDescriptorShortage({ kind: 'exception', error: Object.assign(new Error('x'), { code: 'ENFILE' }) })).toBe(true);
    expect(isDescriptorShortage({ kind: 'tool_error', output: { content: 'x', isError: true, errorCode: 'EMFILE' } })).toBe(true);
    expect(isDescriptorShortage({ kind: 'exception', error: Object.assign(new Error('x'), { code: 'EACCES' }) })).toBe(false);
    expect(isDescriptorShortage(ok)).toBe(false);
  });
});
