/**
 * `faultline run --workers N`: how many worker threads a run uses, and the
 * thread pool that runs its sessions on them (suites/thread-pool.ts). Only
 * the mock and a replay run on workers: each worker builds its own source,
 * which a live provider (its keys, rate limits) and --record (one recording
 * written by one thread) cannot share.
 */
import { availableParallelism } from 'node:os';
import { withMcpNames, type McpNameMode } from '../events/private-names.js';
import type { JsonlSink } from '../events/sink.js';
import type { SandboxMode } from '../events/labels.js';
import type { LoadedTask } from '../suites/load-suite.js';
import type { MockSourceOptions } from '../suites/mock-source.js';
import type { ThreadPool } from '../suites/thread-pool.js';
import type { ThreadSourceSpec } from '../suites/thread-protocol.js';
import type { CliIo } from './io.js';

/**
 * Sessions from which a run without --workers uses one thread per core (at
 * most 8). A worker loads the harness and the SDKs anew, about half a second
 * of CPU (measured from dist/ on 2 cores): what 100-150 of the bench's
 * three-turn sessions cost, so below 200 sessions one thread finishes first.
 */
export const WORKERS_FROM_SESSIONS = 200;

/** Worker threads for a run: --workers, else the default above; never more than -j or the sessions. */
export function runWorkers(asked: number | undefined, sessions: number, concurrency: number): number {
  const wanted = asked ?? (sessions < WORKERS_FROM_SESSIONS ? 1 : Math.min(availableParallelism(), 8));
  return Math.max(1, Math.min(wanted, concurrency, sessions));
}

export interface PoolRequest {
  /** The run's options that decide where its sessions may run. */
  opts: { provider: string; record?: string; replay?: string; mcpNames?: McpNameMode; keepWorkspaces?: boolean; sandbox?: SandboxMode };
  /** --workers as given (undefined: the default). */
  workersAsked: number | undefined;
  tasks: LoadedTask[];
  repeat: number;
  concurrency: number;
  runId: string;
  mockOptions: MockSourceOptions;
  sink: JsonlSink;
  io: CliIo;
}

/** The run's thread pool, or null when it runs on the main thread (one worker, or a source that cannot move). */
export async function runPool(request: PoolRequest): Promise<ThreadPool | null> {
  const { opts, workersAsked, io } = request;
  const source: ThreadSourceSpec | null = opts.record
    ? null
    : opts.replay
      ? { kind: 'replay', dir: opts.replay }
      : opts.provider === 'mock'
        ? { kind: 'mock', options: request.mockOptions }
        : null;
  if (!source) {
    if (workersAsked !== undefined && workersAsked > 1) io.stderr(`faultline: --workers applies to the mock and --replay; ${opts.record ? '--record' : `--provider ${opts.provider}`} runs on one thread\n`);
    return null;
  }
  const workers = runWorkers(workersAsked, request.tasks.length * request.repeat, request.concurrency);
  if (workers <= 1) return null;
  const { threadPool } = await import('../suites/thread-pool.js');
  return threadPool({
    workers,
    init: {
      tasks: request.tasks,
      runId: request.runId,
      source,
      mcpNames: opts.mcpNames ?? 'private',
      ...(opts.keepWorkspaces ? { keepWorkspaces: true } : {}),
      ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
    },
    lines: request.sink,
    sink: withMcpNames(request.sink, opts.mcpNames),
  });
}
