/**
 * `--record <dir>`: wraps any ModelSource so every model exchange of every
 * session is written as JSON (see exchange.ts for what is and is not stored).
 * The harness sees the inner model unchanged; recording never alters a run.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelCallError, type CompleteOptions, type Model, type ModelRequest, type ModelResponse, type RequestInfo, type ToolUseBlock } from '../providers/types.js';
import { FAULTLINE_VERSION } from '../version.js';
import {
  MANIFEST_FILE,
  RECORDING_VERSION,
  exchangeFile,
  recordedRequest,
  reportedPositions,
  scrub,
  sessionDir,
  turnOf,
  type RecordedExchange,
  type RecordingManifest,
} from './exchange.js';
import type { LoadedTask } from './load-suite.js';
import type { ModelSource, SessionContext, SessionModel } from './model-source.js';
import { requestKey } from './request-key.js';

const writeJson = (file: string, value: unknown): void => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

class RecordingModel implements Model {
  private seq = 0;
  /** What describeRequest answered since the last exchange, by request: kept with the next exchange for replay. */
  private readonly measured = new Map<string, RequestInfo>();

  constructor(
    private readonly inner: Model,
    private readonly task: string,
    private readonly session: SessionContext,
    private readonly dir: string,
  ) {}

  get provider(): string {
    return this.inner.provider;
  }
  get model(): string {
    return this.inner.model;
  }

  describeRequest(request: ModelRequest): RequestInfo {
    const info = this.inner.describeRequest(request);
    this.measured.set(requestKey(recordedRequest(request, this.session.workspace)), info);
    return info;
  }

  async complete(request: ModelRequest, options?: CompleteOptions): Promise<ModelResponse> {
    const seq = ++this.seq;
    const turn = turnOf(request);
    const sent = recordedRequest(request, this.session.workspace);
    const sentKey = requestKey(sent);
    const measured = [...this.measured].filter(([key]) => key !== sentKey).map(([key, info]) => ({ key, info }));
    this.measured.clear();
    const base = {
      v: RECORDING_VERSION,
      task: this.task,
      repeat: this.session.repeat,
      seq,
      turn,
      provider: this.inner.provider,
      model: this.inner.model,
      // Measured here, on the request being sent: the harness also describes requests it never sends
      // (the unloaded deferred tools alone, a history before compaction), so "the last one described" is not this one.
      info: this.inner.describeRequest(request),
      request: sent,
      ...(measured.length > 0 ? { measured } : {}),
    } satisfies Omit<RecordedExchange, 'response' | 'error'>;
    const file = join(this.dir, exchangeFile(seq, turn));
    const reported: ToolUseBlock[] = [];
    const hooks: CompleteOptions = {};
    const onToolUse = options?.onToolUse;
    if (onToolUse) {
      hooks.onToolUse = (block) => {
        reported.push(block);
        onToolUse(block);
      };
    }
    try {
      const response = await this.inner.complete(request, hooks);
      const streamed = reported.length > 0 ? { reported_tool_uses: reportedPositions(response, reported) } : {};
      writeJson(file, { ...base, response: scrub(response, this.session.workspace), ...streamed } satisfies RecordedExchange);
      return response;
    } catch (error) {
      // Provider errors are part of the conversation (a replay must retry the same way); an abort is not.
      if (error instanceof ModelCallError) {
        const recorded = {
          kind: error.kind,
          message: error.message,
          status: error.status,
          retry_after_ms: error.retryAfterMs,
          retryable: error.retryable,
          should_retry: error.shouldRetry,
        };
        writeJson(file, { ...base, error: scrub(recorded, this.session.workspace) } satisfies RecordedExchange);
      }
      throw error;
    }
  }
}

export function recordingSource(inner: ModelSource, dir: string, now: () => Date = () => new Date()): ModelSource {
  mkdirSync(dir, { recursive: true });
  const manifest: RecordingManifest = {
    v: RECORDING_VERSION,
    provider: inner.provider,
    model: inner.modelName,
    created: now().toISOString(),
    faultline_version: FAULTLINE_VERSION,
  };
  writeJson(join(dir, MANIFEST_FILE), manifest);
  return {
    provider: inner.provider,
    modelName: inner.modelName,
    // Recording answers nothing itself: the source it wraps does.
    ...(inner.transport ? { transport: (task: LoadedTask) => inner.transport!(task) } : {}),
    async open(task: LoadedTask, session: SessionContext = { repeat: 0, workspace: '' }): Promise<SessionModel> {
      const target = sessionDir(dir, task.id, session.repeat);
      // A session's directory is rewritten whole: leftovers of an older, longer run would break its replay.
      rmSync(target, { recursive: true, force: true });
      mkdirSync(target, { recursive: true });
      const opened = await inner.open(task, session);
      return { model: new RecordingModel(opened.model, task.id, session, target), close: () => opened.close() };
    },
  };
}
