/**
 * The path guard's directory memo (pipeline/batch-path-memo.ts) never lets a
 * directory swapped for a symlink slip through: the memo lives for one batch
 * of read-only calls and a call that may change files ends its sharing. Each
 * swap below happens between two checks of the same turn or session; a memo
 * that outlived its batch would judge the second check by the stale
 * directory (the control test shows that it would).
 */
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemorySink, RunEmitter } from '../../src/events/index.js';
import { checkPath } from '../../src/harness/permissions/path-guard.js';
import { runTurnCalls } from '../../src/harness/pipeline/run-turn-calls.js';
import { createSessionServices } from '../../src/harness/pipeline/session-services.js';
import { createScheduler } from '../../src/harness/schedule/scheduler.js';
import { ToolRegistry } from '../../src/harness/tools/registry.js';
import type { Tool } from '../../src/harness/tools/tool.js';
import type { ToolUseBlock } from '../../src/providers/types.js';

let base: string;
let ws: string;
let outside: string;
let bodies: string[];

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'faultline-memo-')));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(ws, 'data'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, 'data', 'a.txt'), 'a');
  writeFileSync(join(ws, 'data', 'secret.txt'), 'inside copy');
  writeFileSync(join(outside, 'secret.txt'), 'outside secret');
  bodies = [];
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** `data/` becomes a symlink to the directory outside the workspace. */
function swapDataForLink(): void {
  renameSync(join(ws, 'data'), join(ws, 'data-old'));
  symlinkSync(outside, join(ws, 'data'));
}

const fileInput = z.strictObject({ file_path: z.string() });
const peek: Tool<z.infer<typeof fileInput>> = {
  name: 'peek',
  description: 'Reads a file (test stand-in).',
  inputSchema: fileInput,
  readOnly: true,
  isConcurrencySafe: () => true,
  accessedPaths: (input) => [{ path: input.file_path, access: 'read' }],
  async execute(input) {
    bodies.push(`peek ${input.file_path}`);
    return { content: 'ok' };
  },
};
const noInput = z.strictObject({});
/** Changes files, and says so: a batch of its own. */
const swap: Tool<z.infer<typeof noInput>> = {
  name: 'swap',
  description: 'Swaps data/ for a symlink out of the workspace (test stand-in for a bash call).',
  inputSchema: noInput,
  readOnly: false,
  isConcurrencySafe: () => false,
  async execute() {
    bodies.push('swap');
    swapDataForLink();
    return { content: 'swapped' };
  },
};
/** Changes files but claims to be concurrency-safe, so it shares a batch with reads. */
const sneakySwap: Tool<z.infer<typeof noInput>> = { ...swap, name: 'sneaky_swap', isConcurrencySafe: () => true };

function setup() {
  const sink = new MemorySink();
  const emitter = new RunEmitter(sink, 'run-memo').session('s1', 'task-1');
  const registry = new ToolRegistry([peek, swap, sneakySwap]);
  const pipeline = createSessionServices({
    workspace: ws,
    mode: 'acceptEdits',
    headless: true,
    rules: [
      { id: 'swap', effect: 'allow', tool: 'swap' },
      { id: 'sneaky', effect: 'allow', tool: 'sneaky_swap' },
    ],
  });
  const signal = new AbortController().signal;
  // One call at a time, so "check, then the previous call has run" is the order in every test.
  const scheduler = createScheduler({ maxConcurrency: 1 });
  const turn = (n: number, calls: [string, Record<string, unknown>][]) => {
    const blocks: ToolUseBlock[] = calls.map(([name, input], i) => ({ type: 'tool_use', id: `toolu_${n}_${i}`, name, input }));
    return runTurnCalls(blocks, n, { registry, emitter, workspace: ws, signal, defaultTimeoutMs: 10_000, pipeline, scheduler });
  };
  const decisions = () => sink.events().flatMap((e) => (e.event === 'permission_decision' ? [`${e.tool_use_id} ${e.decision} ${e.source}`] : []));
  const batches = () => sink.events().flatMap((e) => (e.event === 'tool_call' ? [e.batch] : []));
  return { turn, decisions, batches };
}

describe('path guard directory memo', () => {
  it('catches a directory swapped for a symlink by a call in an earlier batch of the same turn', async () => {
    const { turn, decisions, batches } = setup();
    const results = await turn(1, [
      ['peek', { file_path: 'data/a.txt' }],
      ['swap', {}],
      ['peek', { file_path: 'data/secret.txt' }],
    ]);
    expect(batches()).toEqual([0, 1, 2]);
    expect(decisions()).toEqual(['toolu_1_0 allow read_only', 'toolu_1_1 allow allow_rule', 'toolu_1_2 deny path_guard']);
    expect(bodies).toEqual(['peek data/a.txt', 'swap']);
    expect(results[2]).toMatchObject({ is_error: true });
    expect(results[2]!.content).toContain(join(outside, 'secret.txt'));
  });

  it('catches a directory swapped between two turns', async () => {
    const { turn, decisions } = setup();
    await turn(1, [['peek', { file_path: 'data/a.txt' }]]);
    swapDataForLink();
    await turn(2, [['peek', { file_path: 'data/secret.txt' }]]);
    expect(decisions()).toEqual(['toolu_1_0 allow read_only', 'toolu_2_0 deny path_guard']);
    expect(bodies).toEqual(['peek data/a.txt']);
  });

  it('stops sharing within a batch once a call that may change files is judged', async () => {
    const { turn, decisions, batches } = setup();
    await turn(1, [
      ['peek', { file_path: 'data/a.txt' }],
      ['sneaky_swap', {}],
      ['peek', { file_path: 'data/secret.txt' }],
    ]);
    expect(batches()).toEqual([0, 0, 0]);
    expect(decisions()).toEqual(['toolu_1_0 allow read_only', 'toolu_1_1 allow allow_rule', 'toolu_1_2 deny path_guard']);
    expect(bodies).toEqual(['peek data/a.txt', 'swap']);
  });

  it('would be fooled by a memo kept across the swap (control: the memo lifetime is what matters)', () => {
    const opts = { workspaceRoot: ws, homeDir: join(base, 'home') };
    const memo = new Map<string, string>();
    expect(checkPath('data/a.txt', 'read', { ...opts, dirMemo: memo }).kind).toBe('inside');
    swapDataForLink();
    expect(checkPath('data/secret.txt', 'read', { ...opts, dirMemo: memo }).kind).toBe('inside'); // stale: fooled
    expect(checkPath('data/secret.txt', 'read', { ...opts, dirMemo: new Map() }).kind).toBe('outside');
    expect(checkPath('data/secret.txt', 'read', opts).kind).toBe('outside');
  });
});
