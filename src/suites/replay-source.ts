/**
 * `--replay <dir>`: plays a recording back as a ModelSource, with no key and
 * no network. Each request the harness sends is compared with the recorded
 * one; the first difference stops the session with a message naming the
 * task, turn and field. A harness that stops before the recording ends is a
 * divergence too (reported when the session closes).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelCallError, type CompleteOptions, type Model, type ModelRequest, type ModelResponse, type RequestInfo } from '../providers/types.js';
import { firstDifference, preview } from './exchange-diff.js';
import { MANIFEST_FILE, recordedRequest, sessionDir, turnOf, unscrub, type RecordedExchange, type RecordingManifest } from './exchange.js';
import type { LoadedTask } from './load-suite.js';
import type { ModelSource, SessionContext, SessionModel } from './model-source.js';
import { requestKey } from './request-key.js';

export const REPLAY_PROVIDER = 'replay';

/** The harness did not send what was recorded, or the recording is missing. Fails the session as `error`. */
export class ReplayError extends Error {
  readonly code = 'REPLAY_DIVERGED';
  constructor(message: string) {
    super(message);
    this.name = 'ReplayError';
  }
}

class ReplayModel implements Model {
  readonly provider = REPLAY_PROVIDER;
  private next = 0;
  divergence: ReplayError | null = null;

  constructor(
    readonly model: string,
    private readonly task: string,
    private readonly exchanges: RecordedExchange[],
    private readonly session: SessionContext,
  ) {}

  describeRequest(request: ModelRequest): RequestInfo {
    const recorded = this.exchanges[this.next];
    if (recorded) {
      // The harness also measures requests it does not send (the unloaded deferred tools alone, a history
      // before compaction): answer each as the provider did when recording, not with the sent request's size.
      const key = requestKey(recordedRequest(request, this.session.workspace));
      if (key === requestKey(recorded.request)) return recorded.info;
      // Not measured when recording (or an older recording without `measured`): the sent request's size, as before.
      return recorded.measured?.find((m) => m.key === key)?.info ?? recorded.info;
    }
    // Past the end of the recording: complete() will report the divergence; the size is only for the event.
    return { requestBytes: Buffer.byteLength(JSON.stringify(recordedRequest(request, this.session.workspace))), toolsBytes: 0, stream: false };
  }

  async complete(request: ModelRequest, options?: CompleteOptions): Promise<ModelResponse> {
    const turn = turnOf(request);
    const recorded = this.exchanges[this.next];
    if (!recorded) return this.diverge(`task ${this.task} turn ${turn}: the harness sent request ${this.next + 1}, the recording has only ${this.exchanges.length}`);
    const sent = recordedRequest(request, this.session.workspace);
    const diff = firstDifference(recorded.request, sent);
    if (diff) {
      return this.diverge(`task ${this.task} turn ${recorded.turn}: ${diff.path} differs: recorded ${preview(diff.recorded)} vs sent ${preview(diff.sent)}`);
    }
    this.next++;
    if (recorded.error) {
      const e = recorded.error;
      throw new ModelCallError(e.kind, e.message, e.status, e.retry_after_ms, e.retryable, e.should_retry ?? null);
    }
    if (!recorded.response) return this.diverge(`task ${this.task} turn ${recorded.turn}: the recorded exchange has neither a response nor an error`);
    const response = unscrub(recorded.response, this.session.workspace);
    // Report the blocks the streaming adapter reported when this was recorded, in the same order.
    for (const index of recorded.reported_tool_uses ?? []) {
      const block = response.content[index];
      if (block?.type === 'tool_use') options?.onToolUse?.(block);
    }
    return response;
  }

  /** What is left unplayed when the session ends. */
  leftover(): ReplayError | null {
    if (this.divergence) return this.divergence;
    if (this.next >= this.exchanges.length) return null;
    const pending = this.exchanges[this.next]!;
    return new ReplayError(`task ${this.task} turn ${pending.turn}: the harness stopped after ${this.next} requests; the recording has ${this.exchanges.length}`);
  }

  private diverge(message: string): never {
    this.divergence = new ReplayError(message);
    // Not retryable: replaying the same request cannot make it match.
    throw new ModelCallError('invalid_request', `replay diverged: ${message}`, null, null, false);
  }
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function replayModelSource(dir: string): ModelSource {
  const manifestFile = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestFile)) throw new ReplayError(`${dir} is not a faultline recording (no ${MANIFEST_FILE}); make one with faultline run --record ${dir}`);
  const manifest = readJson<RecordingManifest>(manifestFile);
  return {
    provider: REPLAY_PROVIDER,
    modelName: manifest.model,
    transport: () => 'replay',
    async open(task: LoadedTask, session: SessionContext = { repeat: 0, workspace: '' }): Promise<SessionModel> {
      const target = sessionDir(dir, task.id, session.repeat);
      if (!existsSync(target)) throw new ReplayError(`no recording for task ${task.id} repeat ${session.repeat} in ${dir}`);
      const files = readdirSync(target).filter((f) => f.endsWith('.json')).sort();
      const model = new ReplayModel(manifest.model, task.id, files.map((f) => readJson<RecordedExchange>(join(target, f))), session);
      return {
        model,
        close: () => {
          const problem = model.leftover();
          if (problem) throw problem;
        },
      };
    },
  };
}
