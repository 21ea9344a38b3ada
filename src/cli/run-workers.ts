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
// Static: the early pool starts from inside the (synchronous) suite loading.
import { threadPool, type ThreadPool, type ThreadPoolPlace } from '../suites/thread-pool.js';
import type { ThreadSourceSpec } from '../suites/thread-protocol.js';
import type { UnitExecutor } from '../suites/run-suite.js';
import type { CliIo } from './io.js';

/**
 * Sessions from which a run without --workers may use more than one thread.
 * A worker loads the harness and the SDKs anew, about half a second of CPU
 * (measured from dist/ on 2 cores): what 100-150 of the bench's three-turn
 * sessions cost, so below 200 sessions one thread finishes first.
 */
export const WORKERS_FROM_SESSIONS = 200;

/**
 * The default worker threads of a big run: one per two cores, at most 8. One
 * thread running sessions keeps about two cores busy: its heap's
 * garbage-collector and compiler helper threads (V8 keeps optimizing the
 * harness's functions as they turn hot, the whole run long), the kernel's
 * file-system work for every workspace, and (with workers) the main thread
 * writing the trace. Each more thread is one more V8 instance that loads and
 * optimizes the same code again. Measured (Dec 5, bench's 2,000 tasks, -j 32,
 * workspaces on /dev/shm, after worker threads started the sessions they
 * receive together, see suites/start-together.ts): one thread 3.8-4.1 s of
 * CPU (user), two threads 5.6-6.0 s, even pinned to one CPU (4.2 against
 * 6.0 s; one worker thread alone 4.5 s); the second thread's extra is its
 * optimizing compiler (828 functions optimized against 600, 2.6 against
 * 1.7 s of compiler threads) and its start-up, +0.3 s at 20 tasks, +0.5 s at
 * 400. So on 2 cores one thread finishes first, and a second thread pays off
 * only with two more cores to run it and its helpers.
 */
export function defaultWorkers(cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(Math.floor(cores / 2), 8));
}

/** Worker threads for a run: --workers, else the default above; never more than -j or the sessions. */
export function runWorkers(asked: number | undefined, sessions: number, concurrency: number, cores?: number): number {
  const wanted = asked ?? (sessions < WORKERS_FROM_SESSIONS ? 1 : defaultWorkers(cores));
  return Math.max(1, Math.min(wanted, concurrency, sessions));
}

/**
 * Whether this thread runs the sessions whatever the suite holds, known
 * before it is read: runWorkers gives 1 for any number of sessions (--workers
 * 1, -j 1, a machine whose default is one thread) or no worker can take them
 * (a live provider, --record).
 */
export function sessionsStayHere(request: Pick<PoolRequest, 'opts' | 'mockOptions' | 'workersAsked' | 'concurrency'>, cores?: number): boolean {
  return !threadSource(request) || runWorkers(request.workersAsked, Number.MAX_SAFE_INTEGER, request.concurrency, cores) <= 1;
}

export interface PoolRequest {
  /** The run's options that decide where its sessions may run. */
  opts: { provider: string; record?: string; replay?: string; mcpNames?: McpNameMode; keepWorkspaces?: boolean; sandbox?: SandboxMode };
  /** --workers as given (undefined: the default). */
  workersAsked: number | undefined;
  concurrency: number;
  runId: string;
  mockOptions: MockSourceOptions;
}

/** Where a worker gets its model from, or null when the run's sessions stay on the main thread (a live provider, --record). */
function threadSource({ opts, mockOptions }: Pick<PoolRequest, 'opts' | 'mockOptions'>): ThreadSourceSpec | null {
  if (opts.record) return null;
  if (opts.replay) return { kind: 'replay', dir: opts.replay };
  return opts.provider === 'mock' ? { kind: 'mock', options: mockOptions } : null;
}

function startPool(request: PoolRequest, workers: number): ThreadPool {
  const { opts } = request;
  return threadPool({
    workers,
    runId: request.runId,
    init: {
      source: threadSource(request)!,
      mcpNames: opts.mcpNames ?? 'private',
      ...(opts.keepWorkspaces ? { keepWorkspaces: true } : {}),
      ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
    },
  });
}

/**
 * The pool started early, while the suite is read, once the run is known to
 * need one: --workers above 1, or (the default) as soon as the suite files
 * read so far hold enough sessions. Its threads load the harness, the SDKs
 * and the mock in parallel with the main thread's parsing. runPool decides
 * later, from the final tasks, whether and how much of it the run uses.
 */
export function earlyPool(request: PoolRequest, sessionsSoFar: number): ThreadPool | null {
  if (!threadSource(request)) return null;
  const { workersAsked, concurrency } = request;
  // A guess from the sessions read so far: a filter or a shard may cut the run below it (runPool then stops what is not needed).
  const workers = workersAsked !== undefined ? Math.min(workersAsked, concurrency) : sessionsSoFar >= WORKERS_FROM_SESSIONS ? runWorkers(undefined, sessionsSoFar, concurrency) : 1;
  return workers > 1 ? startPool(request, workers) : null;
}

/**
 * The executor of a pool writing to the run's trace (`sink`, with the run's MCP-name mode for what the main thread
 * writes itself), its workspaces in `place`.
 */
export function poolExecutor(pool: ThreadPool, sink: JsonlSink, mcpNames: McpNameMode | undefined, place: ThreadPoolPlace): UnitExecutor {
  return pool.executor({ lines: sink, sink: withMcpNames(sink, mcpNames) }, place);
}

/**
 * The run's thread pool, or null when it runs on the main thread (one worker,
 * or a source that cannot move). `early`: the pool earlyPool started, used
 * when the run needs workers (cut to the number it needs), else closed.
 */
export function runPool(request: PoolRequest & { tasks: LoadedTask[]; repeat: number; io: CliIo }, early: ThreadPool | null): ThreadPool | null {
  const { opts, workersAsked, io } = request;
  const source = threadSource(request);
  if (!source) {
    if (workersAsked !== undefined && workersAsked > 1) io.stderr(`faultline: --workers applies to the mock and --replay; ${opts.record ? '--record' : `--provider ${opts.provider}`} runs on one thread\n`);
    early?.close();
    return null;
  }
  const workers = runWorkers(workersAsked, request.tasks.length * request.repeat, request.concurrency);
  if (workers <= 1) {
    early?.close();
    return null;
  }
  if (early) {
    early.limit(workers);
    return early;
  }
  return startPool(request, workers);
}
