import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelCallError, type CompleteOptions, type Model, type ModelRequest, type ModelResponse, type ToolUseBlock } from '../providers/types.js';
import type { LoadedTask } from './load-suite.js';
import type { ModelSource } from './model-source.js';
import { recordingSource } from './record.js';
import { replayModelSource } from './replay-source.js';

const made: string[] = [];
function recordingDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-rec-'));
  made.push(dir);
  return dir;
}
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const task = { id: 't1', suite: 's', file: 'f', prompt: 'p', expect: {} } as LoadedTask;
const request: ModelRequest = { messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }], tools: [], maxTokens: 10 };
const usage = { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0 };
// A faulty model that repeats a tool id: positions, not ids, must identify what was reported.
const twin = (input: Record<string, unknown>): ToolUseBlock => ({ type: 'tool_use', id: 'dup', name: 'read', input });
const response: ModelResponse = { content: [twin({ n: 1 }), twin({ n: 2 })], stopReason: 'tool_use', stopClass: 'tool_use', usage, ttftMs: 12 };

/** A streaming-like model: reports only the second block early, then fails on the next call with a 529. */
function fakeSource(): ModelSource {
  let calls = 0;
  const model: Model = {
    provider: 'fake',
    model: 'fake-1',
    describeRequest: () => ({ requestBytes: 1, toolsBytes: 0, stream: true }),
    async complete(_r: ModelRequest, options?: CompleteOptions) {
      if (++calls > 1) throw new ModelCallError('overloaded', 'overloaded', 529, 250, true, false);
      options?.onToolUse?.(response.content[1] as ToolUseBlock);
      return response;
    },
  };
  return { provider: 'fake', modelName: 'fake-1', open: async () => ({ model, close: () => undefined }) };
}

describe('recording and replaying one session', () => {
  it('replays the streamed tool_use reports by position and the provider error with its retry facts', async () => {
    const dir = recordingDir();
    const recorder = await recordingSource(fakeSource(), dir).open(task, { repeat: 0, workspace: '/ws' });
    const seen: unknown[] = [];
    await recorder.model.complete(request, { onToolUse: (b) => seen.push(b.input) });
    await expect(recorder.model.complete(request)).rejects.toBeInstanceOf(ModelCallError);
    expect(seen).toEqual([{ n: 2 }]);
    expect(readdirSync(join(dir, 't1', 'r0'))).toEqual(['001-turn-1.json', '002-turn-1.json']);
    expect(JSON.parse(readFileSync(join(dir, 't1', 'r0', '001-turn-1.json'), 'utf8')).reported_tool_uses).toEqual([1]);

    const replay = await replayModelSource(dir).open(task, { repeat: 0, workspace: '/other' });
    const replayed: unknown[] = [];
    const first = await replay.model.complete(request, { onToolUse: (b) => replayed.push(b.input) });
    expect(replayed).toEqual([{ n: 2 }]);
    expect(first.ttftMs).toBe(12);
    const error = await replay.model.complete(request).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'overloaded', status: 529, retryAfterMs: 250, retryable: true, shouldRetry: false });
    expect(() => replay.close()).not.toThrow();
  });

  it('reports, when the session closes, a harness that stopped before the recording ended', async () => {
    const dir = recordingDir();
    const recorder = await recordingSource(fakeSource(), dir).open(task, { repeat: 0, workspace: '/ws' });
    await recorder.model.complete(request);
    await recorder.model.complete(request).catch(() => undefined);
    const replay = await replayModelSource(dir).open(task, { repeat: 0, workspace: '/ws' });
    await replay.model.complete(request);
    expect(() => replay.close()).toThrow('task t1 turn 1: the harness stopped after 1 requests; the recording has 2');
  });
});

describe('request sizes in a recording', () => {
  // Sizes that differ per request, so a size given for the wrong request shows.
  const sizeOf = (r: ModelRequest) => ({ requestBytes: JSON.stringify(r.messages).length, toolsBytes: JSON.stringify(r.tools).length, stream: false });
  function sizingSource(): ModelSource {
    const model: Model = {
      provider: 'fake',
      model: 'fake-1',
      describeRequest: sizeOf,
      complete: async () => ({ content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn', stopClass: 'end_turn', usage, ttftMs: null }),
    };
    return { provider: 'fake', modelName: 'fake-1', open: async () => ({ model, close: () => undefined }) };
  }
  const toolsOnly: ModelRequest = { ...request, messages: [], tools: [{ name: 'sleep', description: 'waits', input_schema: { type: 'object' } }] };
  const longer: ModelRequest = { ...request, messages: [...request.messages, { role: 'user', content: [{ type: 'text', text: 'and more' }] }] };

  it('records the size of the request sent, whatever the harness described last, and replays every measurement as recorded', async () => {
    const dir = recordingDir();
    const recorder = await recordingSource(sizingSource(), dir).open(task, { repeat: 0, workspace: '/ws' });
    recorder.model.describeRequest(longer); // e.g. the history before compaction
    recorder.model.describeRequest(request);
    recorder.model.describeRequest(toolsOnly); // e.g. the unloaded deferred tools alone, measured after the request
    await recorder.model.complete(request);
    const exchange = JSON.parse(readFileSync(join(dir, 't1', 'r0', '001-turn-1.json'), 'utf8')) as { info: unknown; measured: unknown[] };
    expect(exchange.info).toEqual(sizeOf(request));
    expect(exchange.measured).toHaveLength(2);

    const replay = await replayModelSource(dir).open(task, { repeat: 0, workspace: '/other' });
    expect(replay.model.describeRequest(toolsOnly)).toEqual(sizeOf(toolsOnly));
    expect(replay.model.describeRequest(longer)).toEqual(sizeOf(longer));
    expect(replay.model.describeRequest(request)).toEqual(sizeOf(request));
    // Never measured when recording: the sent request's size, as a recording without measurements gives.
    expect(replay.model.describeRequest({ ...request, maxTokens: 99 })).toEqual(sizeOf(request));
    await replay.model.complete(request);
    expect(() => replay.close()).not.toThrow();
  });
});
