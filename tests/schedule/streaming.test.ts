/**
 * The streaming scheduler (docs/harness-rules.md#streaming-execution) through the real SDKs over real sockets
 * (loopback mock, SSE): calls start before the response is complete, and
 * switching `streamingTools` on or off gives the same trace apart from timing
 * fields and event order, the same results and the same files — also for
 * turns that must not execute (cut by max_tokens, null stop reason) and for a
 * stream that breaks and is retried.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { MemorySink, RunEmitter, type FaultlineEvent } from '../../src/events/index.js';
import { DEFAULT_HARNESS_CONFIG } from '../../src/harness/config.js';
import { defineDefense } from '../../src/harness/defenses/define.js';
import type { HookDefense } from '../../src/harness/defenses/types.js';
import type { HookSet } from '../../src/harness/hooks/types.js';
import { runAgent } from '../../src/harness/loop/agent-loop.js';
import { bashTool } from '../../src/harness/tools/bash.js';
import { editTool } from '../../src/harness/tools/edit.js';
import { sleepTool } from '../../src/harness/tools/fault-tools.js';
import { readTool } from '../../src/harness/tools/read.js';
import { ToolRegistry } from '../../src/harness/tools/registry.js';
import type { Tool } from '../../src/harness/tools/tool.js';
import { writeTool } from '../../src/harness/tools/write.js';
import { loopbackModel, stopSharedLoopbackServer } from '../../src/mock/loopback-model.js';
import type { ModelScript } from '../../src/mock/script.js';
import type { Model } from '../../src/providers/types.js';
import { createWorkspace } from '../../src/suites/workspace.js';
import { timed } from './harness.js';
import { removeAfterFile } from '../helpers/temp-dirs.js';

afterAll(() => stopSharedLoopbackServer());

type Wire = 'anthropic' | 'openai' | 'responses';
const FILES = { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' };
const TIMING = new Set(['ts', 'seq', 'duration_ms', 'execution_ms', 'pipeline_ms', 'ttft_ms']);

async function runOnce(
  script: z.input<typeof ModelScript>,
  streamingTools: boolean,
  wire: Wire,
  tools: Tool[] = [readTool, editTool, writeTool, bashTool, sleepTool],
  userDefenses: readonly HookDefense[] = [],
) {
  const preToolUse: string[] = [];
  const hooks: HookSet = { preToolUse: (event) => void preToolUse.push(event.toolUseId) };
  const { model, session } = await loopbackModel(script, { wire, stream: true });
  let responseAt = 0;
  const watched: Model = {
    provider: model.provider,
    model: model.model,
    describeRequest: (r) => model.describeRequest(r),
    complete: async (r, o) => {
      const response = await model.complete(r, o);
      responseAt = responseAt || performance.now();
      return response;
    },
  };
  const sink = new MemorySink();
  const workspace = removeAfterFile(createWorkspace(FILES));
  try {
    const result = await runAgent({
      model: watched,
      registry: new ToolRegistry(tools),
      emitter: new RunEmitter(sink, 'run-test').session('s1', 'task-1'),
      prompt: 'Do the task.',
      workspace,
      config: { ...DEFAULT_HARNESS_CONFIG, streamingTools, retry: { baseDelayMs: 1, maxDelayMs: 2, jitter: 0 }, userDefenses },
      pipeline: { hooks },
    });
    const files = Object.fromEntries(readdirSync(workspace).map((f) => [f, readFileSync(join(workspace, f), 'utf8')]));
    return { result, events: sink.events(), files, preToolUse, firstResponseAt: () => responseAt };
  } finally {
    session.close();
  }
}

/** The trace without timing: every field but ts/seq/durations, as a sorted multiset. */
function untimed(events: readonly FaultlineEvent[]): string[] {
  return events.map((e) => JSON.stringify(Object.fromEntries(Object.entries(e).filter(([k]) => !TIMING.has(k))))).sort();
}

/** PreToolUse `hook` events: one per run of the user's hook, in either mode. */
const hookEvents = (events: readonly FaultlineEvent[]) => events.filter((e) => e.event === 'hook' && e.hook === 'pre_tool_use');

async function compare(script: z.input<typeof ModelScript>, wire: Wire) {
  const off = await runOnce(script, false, wire);
  const on = await runOnce(script, true, wire);
  // Every run of the user's hook is an event, in both modes; streaming may have run it for an early
  // call of a turn that was then not executed, so the hook events are compared apart from the rest.
  for (const run of [off, on]) expect(hookEvents(run.events)).toHaveLength(run.preToolUse.length);
  const notHooks = (events: readonly FaultlineEvent[]) => events.filter((e) => !(e.event === 'hook' && e.hook === 'pre_tool_use'));
  expect(untimed(notHooks(on.events))).toEqual(untimed(notHooks(off.events)));
  expect(on.result.messages).toEqual(off.result.messages);
  expect(on.files).toEqual(off.files);
  expect(on.result.stop).toBe(off.result.stop);
  return { off, on };
}

const slow = { chunk_delay_ms: 3 };

describe.each<Wire>(['anthropic', 'openai', 'responses'])('streaming on/off over the %s wire', (wire) => {
  it('gives the same trace, results and files for safe, unsafe and cascading calls in one turn', async () => {
    const { on } = await compare(
      [
        {
          tool_use: [
            { name: 'read', input: { file_path: 'a.txt' } },
            { name: 'read', input: { file_path: 'b.txt' } },
            { name: 'edit', input: { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' } },
            { name: 'read', input: { file_path: 'a.txt' } },
            { name: 'bash', input: { command: 'ls missing-dir' } },
            // Still running when the ls above fails, so the cascade stops it in both modes (a fast sibling could win the race).
            { name: 'bash', input: { command: 'sleep 0.5' } },
          ],
          fault: slow,
        },
        { text: 'done' },
      ],
      wire,
    );
    expect(on.events.filter((e) => e.event === 'tool_call').map((e) => (e as { batch: number }).batch)).toEqual([0, 0, 1, 2, 2, 2]);
    // PreToolUse fires once per call in streaming mode too (the same pipeline runs each call once).
    expect([...on.preToolUse].sort()).toEqual([...new Set(on.preToolUse)].sort());
    expect(on.preToolUse).toHaveLength(6);
  });

  it('gives the same outcome when max_tokens cuts the last call (nothing runs, early reads are dropped)', async () => {
    await compare(
      [
        {
          tool_use: [
            { name: 'read', input: { file_path: 'a.txt' } },
            { name: 'write', input: { file_path: 'c.txt', content: 'a long text that gets cut somewhere in the middle' } },
          ],
          stop_reason: 'max_tokens',
          cut_tool_input: true,
          fault: slow,
        },
        { text: 'ok' },
      ],
      wire,
    );
  });

  it('gives the same outcome for a null stop reason after complete calls (fail closed, nothing runs)', async () => {
    const { on } = await compare([{ tool_use: [{ name: 'read', input: { file_path: 'a.txt' } }], stop_reason: null, fault: slow }], wire);
    expect(on.events.filter((e) => e.event === 'tool_call')).toHaveLength(0);
  });
});

describe('streaming scheduler', () => {
  it('drops what a broken stream started and runs the retried attempt once', async () => {
    const { on } = await compare(
      [
        {
          tool_use: [
            { name: 'read', input: { file_path: 'a.txt' } },
            { name: 'read', input: { file_path: 'b.txt' } },
          ],
          fault: { sse_error: { after_events: 9 }, times: 1, chunk_delay_ms: 2 },
        },
        { text: 'ok' },
      ],
      'anthropic',
    );
    expect(on.events.filter((e) => e.event === 'model_error')).toHaveLength(1);
    expect(on.events.filter((e) => e.event === 'tool_call')).toHaveLength(2);
    // The broken attempt ran the hook for its early read; the retried read takes that verdict:
    // the user's hook runs once per call that executes, and each run is one event.
    expect(on.preToolUse).toHaveLength(2);
    expect(hookEvents(on.events)).toHaveLength(2);
    const ids = (events: readonly FaultlineEvent[]) => events.map((e) => (e as { tool_use_id?: string }).tool_use_id).sort();
    expect(ids(hookEvents(on.events))).toEqual(ids(on.events.filter((e) => e.event === 'tool_call')));
  });

  it('writes the hook event of an early call whose attempt was dropped and not repeated (every run is an event)', async () => {
    const on = await runOnce(
      [
        { tool_use: [{ name: 'read', input: { file_path: 'a.txt' } }, { name: 'write', input: { file_path: 'c.txt', content: 'cut here and never finished' } }], stop_reason: 'max_tokens', cut_tool_input: true, fault: slow },
        { text: 'ok' },
      ],
      true,
      'anthropic',
    );
    // The read started early and ran the hook; the cut turn runs nothing, yet that run is in the trace.
    expect(on.preToolUse).toHaveLength(1);
    expect(hookEvents(on.events)).toHaveLength(1);
  });

  it("judges with a user defense's beforeToolCall only the calls the session made, not those of a dropped attempt", async () => {
    const script: z.input<typeof ModelScript> = [
      {
        tool_use: [
          { name: 'read', input: { file_path: 'a.txt' } },
          { name: 'read', input: { file_path: 'b.txt' } },
        ],
        fault: { sse_error: { after_events: 9 }, times: 1, chunk_delay_ms: 2 },
      },
      { text: 'ok' },
    ];
    const judged = async (on: boolean) => {
      const seen: string[] = [];
      const watch = defineDefense({
        name: 'call_watch',
        guards: 'test: records each call it judges',
        source: 'test',
        defaultOn: true,
        action: 'block',
        session: () => ({ beforeToolCall: (call) => void seen.push(String((call.input as { file_path?: string }).file_path)) }),
      });
      const run = await runOnce(script, on, 'anthropic', undefined, [watch]);
      expect(run.events.filter((e) => e.event === 'model_error')).toHaveLength(1);
      return { seen, stats: run.events.find((e) => e.event === 'defense_stats' && e.defense === 'call_watch') };
    };
    const off = await judged(false);
    const on = await judged(true);
    expect(off.seen).toEqual(['a.txt', 'b.txt']);
    expect(on.seen.sort()).toEqual(off.seen);
    expect(on.stats).toMatchObject({ evaluated: 2, triggered: 0 });
  });

  it('starts a safe call before the response is complete only when switched on', async () => {
    const script: z.input<typeof ModelScript> = [
      { tool_use: [{ name: 'sleep', input: { ms: 30 } }, { name: 'sleep', input: { ms: 30 } }], fault: { chunk_delay_ms: 15 } },
      { text: 'ok' },
    ];
    const starts = async (on: boolean) => {
      const probe = timed(sleepTool);
      const run = await runOnce(script, on, 'anthropic', [probe.tool]);
      return Math.min(...probe.intervals.map((i) => i.start)) - run.firstResponseAt();
    };
    expect(await starts(true)).toBeLessThan(0);
    expect(await starts(false)).toBeGreaterThanOrEqual(0);
  });

  it('holds a call with side effects until the response is complete', async () => {
    const probe = timed(writeTool);
    const run = await runOnce(
      [{ tool_use: [{ name: 'write', input: { file_path: 'c.txt', content: 'x' } }, { name: 'read', input: { file_path: 'a.txt' } }], fault: { chunk_delay_ms: 15 } }, { text: 'ok' }],
      true,
      'anthropic',
      [probe.tool, readTool],
    );
    expect(probe.intervals).toHaveLength(1);
    expect(probe.intervals[0]!.start).toBeGreaterThanOrEqual(run.firstResponseAt());
  });
});
