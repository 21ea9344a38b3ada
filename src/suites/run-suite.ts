/**
 * Runs loaded tasks with bounded concurrency (-j N) as one run: run_start,
 * one session per task (and per repeat), run_end. Progress goes to a
 * callback so the CLI decides how to show it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { SandboxMode } from '../events/labels.js';
import { RunEmitter } from '../events/emitter.js';
import type { EventSink } from '../events/sink.js';
import { FAULTLINE_VERSION } from '../version.js';
import type { HookDefense } from '../harness/defenses/types.js';
import type { LoadedTask } from './load-suite.js';
import type { ModelSource } from './model-source.js';
import type { TaskOutcome } from './run-task.js';

export interface RunSuiteOptions {
  tasks: LoadedTask[];
  sink: EventSink;
  source: ModelSource;
  runId?: string;
  concurrency?: number;
  /** Sessions per task (`--repeat k`, default 1): each repeat is its own session with its `repeat` index. */
  repeat?: number;
  keepWorkspaces?: boolean;
  /** Parent of the task workspaces (default: the OS temp directory). */
  tempDir?: string;
  /** tempDir is faultline's own choice: see TaskRunOptions. */
  tempDirFallback?: boolean;
  /** Aborts the running tasks (their sessions end `aborted`) and starts no more (a second Ctrl-C). */
  signal?: AbortSignal;
  /** Starts no more tasks; the running ones finish normally (a first Ctrl-C). run_end is written either way. */
  stopSignal?: AbortSignal;
  /** `--sandbox`: overrides every task's `sandbox` setting. */
  sandbox?: SandboxMode;
  /** Written on run_start (additive contract fields): the logical run this run belongs to and its shard. */
  logicalRunId?: string;
  shard?: { index: number; count: number };
  /** Defenses armed in every session beside the tasks' own (objects, e.g. from `faultline/testing`'s runScenario). */
  extraDefenses?: readonly HookDefense[];
  onTaskStart?: (task: LoadedTask) => void;
  onTaskEnd?: (outcome: TaskOutcome, done: number, total: number) => void;
  /**
   * Runs the sessions somewhere else (faultline run --workers: worker threads,
   * see thread-pool.ts). Default: here, on this thread, with runTask.
   */
  executor?: UnitExecutor;
}

/** One session of the run: a task and its repeat, at its place in the task-major order. */
export interface RunUnit {
  task: LoadedTask;
  /** The task's position in the run (its session id's number). */
  index: number;
  /** Repeat index. */
  r: number;
  /** Position in the run's units (and in the summary's outcomes). */
  slot: number;
  sessionId: string;
}

/** What an executor gets from the run: the units, when to stop starting them, and where each one starts and ends. */
export interface ExecutorContext {
  units: readonly RunUnit[];
  concurrency: number;
  /** Aborts the running sessions (a second Ctrl-C): they end `aborted`. */
  runSignal: AbortSignal;
  /** True once no more units may start (a Ctrl-C or an abort). */
  stopping(): boolean;
  onStart(unit: RunUnit): void;
  onEnd(unit: RunUnit, outcome: TaskOutcome): void;
  /**
   * Runs `units` on this thread, as a run without an executor does: where an executor whose threads could not start
   * hands the units they never got, so a run loses none of them.
   */
  runHere(units: readonly RunUnit[]): Promise<void>;
}

/** Runs units (at most `concurrency` at once) and resolves once every started one ended and its workspace is gone. */
export type UnitExecutor = (context: ExecutorContext) => Promise<void>;

export interface RunSummary {
  runId: string;
  /** Sessions per task. */
  repeat: number;
  outcomes: TaskOutcome[];
  passed: number;
  failed: number;
  errored: number;
  aborted: number;
  durationMs: number;
}

export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

export async function runSuite(options: RunSuiteOptions): Promise<RunSummary> {
  const started = performance.now();
  const runId = options.runId ?? newRunId();
  const run = new RunEmitter(options.sink, runId);
  const { tasks } = options;
  const suites = [...new Set(tasks.map((t) => t.suite))];
  run.emit('run_start', {
    suite: suites.join(',').slice(0, 512),
    provider: options.source.provider,
    model: options.source.modelName,
    faultline_version: FAULTLINE_VERSION,
    node_version: process.version,
    config_hash: configHash(tasks),
    tasks: tasks.length,
    ...(options.logicalRunId !== undefined ? { logical_run_id: options.logicalRunId } : {}),
    ...(options.shard ? { shard_index: options.shard.index, shard_count: options.shard.count } : {}),
  });

  const repeat = Math.max(1, options.repeat ?? 1);
  // Task-major order: a task's repeats sit together in outcomes and in the trace.
  const units: RunUnit[] = tasks.flatMap((task, index) =>
    Array.from({ length: repeat }, (_, r) => ({
      task,
      index,
      r,
      slot: index * repeat + r,
      // Unchanged ids without --repeat, so traces of plain runs stay comparable.
      sessionId: repeat === 1 ? `${runId}.${index}` : `${runId}.${index}.${r}`,
    })),
  );
  const outcomes: TaskOutcome[] = new Array(units.length);
  let done = 0;
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 1, units.length));
  // One run signal per task listener: at -j 1000 that is 1000 listeners, all legitimate (not a leak warning).
  const runAbort = new AbortController();
  setMaxListeners(concurrency + 16, runAbort.signal);
  const forwardAbort = () => runAbort.abort(options.signal?.reason);
  if (options.signal?.aborted) forwardAbort();
  else options.signal?.addEventListener('abort', forwardAbort, { once: true });
  const here = inProcessExecutor(run, options);
  const context: ExecutorContext = {
    units,
    concurrency,
    runSignal: runAbort.signal,
    stopping: () => options.stopSignal?.aborted === true || runAbort.signal.aborted,
    onStart: (unit) => options.onTaskStart?.(unit.task),
    onEnd: (unit, outcome) => {
      outcomes[unit.slot] = outcome;
      options.onTaskEnd?.(outcome, ++done, units.length);
    },
    runHere: (rest) => here({ ...context, units: rest, concurrency: Math.max(1, Math.min(concurrency, rest.length)) }),
  };
  try {
    await (options.executor ?? here)(context);
  } finally {
    options.signal?.removeEventListener('abort', forwardAbort);
  }

  // A stopped run leaves the units it never started empty: its sessions are the ones that ran.
  const ran = outcomes.filter((o) => o !== undefined);
  const count = (o: TaskOutcome['outcome']) => ran.filter((x) => x.outcome === o).length;
  const summary: RunSummary = {
    runId,
    repeat,
    outcomes: ran,
    passed: count('passed'),
    failed: count('failed'),
    errored: count('error'),
    aborted: count('aborted'),
    durationMs: Math.round(performance.now() - started),
  };
  run.emit('run_end', {
    sessions: ran.length,
    passed: summary.passed,
    failed: summary.failed,
    errored: summary.errored,
    aborted: summary.aborted,
    duration_ms: summary.durationMs,
  });
  options.sink.flush();
  return summary;
}

/** The sessions on this thread: `concurrency` loops taking the next unit until none is left or the run stops. */
function inProcessExecutor(run: RunEmitter, options: RunSuiteOptions): UnitExecutor {
  return async ({ units, concurrency, runSignal, stopping, onStart, onEnd }) => {
    // Loaded here, not at the top: a run on worker threads never loads the harness on the main thread.
    const { runTask } = await import('./run-task.js');
    let next = 0;
    // Workspace removals run in the background and are all awaited before run_end, so the run leaves nothing behind.
    const cleanups = new Set<Promise<void>>();
    const onCleanup = (removal: Promise<void>) => {
      cleanups.add(removal);
      void removal.finally(() => cleanups.delete(removal));
    };
    let lastTurn = performance.now();
    let turn: Promise<void> | null = null;
    const loop = async (): Promise<void> => {
      while (next < units.length && !stopping()) {
        const unit = units[next++]!;
        onStart(unit);
        const outcome = await runTask(unit.task, {
          run,
          source: options.source,
          sessionId: unit.sessionId,
          repeat: unit.r,
          keepWorkspace: options.keepWorkspaces,
          runSignal,
          onCleanup,
          ...(options.tempDir !== undefined ? { tempDir: options.tempDir } : {}),
          ...(options.tempDirFallback ? { tempDirFallback: true } : {}),
          ...(options.sandbox ? { sandbox: options.sandbox } : {}),
          ...(options.extraDefenses ? { extraDefenses: options.extraDefenses } : {}),
        });
        onEnd(unit, outcome);
        // See turnOfTheLoop: once LOOP_TURN_MS passed, every loop waits for the same turn after its session.
        if (turn === null && performance.now() - lastTurn >= LOOP_TURN_MS) {
          turn = turnOfTheLoop().then(() => {
            turn = null;
            lastTurn = performance.now();
          });
        }
        if (turn !== null) await turn;
      }
    };
    try {
      await Promise.all(Array.from({ length: concurrency }, loop));
    } finally {
      while (cleanups.size > 0) await Promise.all([...cleanups]);
    }
  };
}

/**
 * Longest stretch of sessions run without a turn of the event loop (see turnOfTheLoop). Measured on the 2,000-task
 * bench suite at -j 32: every 20 ms leaves 4-42 removals for the end (idle before run_end 4-17 ms, against
 * 190-400 ms without turns) at the same CPU time (user 4.28-4.60 s against 4.36-4.49 s).
 */
const LOOP_TURN_MS = 20;

/**
 * Resolves after one turn of the event loop, its I/O phase included. Sessions that wait on nothing but promises
 * (synchronous fs, the mock's in-memory transport) run as one chain of microtasks, and the loop does not turn
 * until the last session ended: no timer fires, no signal is handled (Ctrl-C), and the thread pool's answers to
 * the workspace removals running in the background wait (measured, 2,000 tasks at -j 32: all 2,000 removals
 * still pending after the last session, then 150-400 ms of idle draining them before run_end). A setImmediate
 * runs only once no microtask is left, that is once every session loop waits for it: so they all wait for the
 * same turn (a loop waiting alone would wait for the others' every session).
 */
function turnOfTheLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Identifies the suite content a run used, so two runs of different suites are not compared by mistake. */
export function configHash(tasks: LoadedTask[]): string {
  const hash = createHash('sha256');
  for (const task of tasks) hash.update(JSON.stringify({ ...task, file: undefined }));
  return hash.digest('hex').slice(0, 16);
}
