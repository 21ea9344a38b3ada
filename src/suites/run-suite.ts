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
import { runTask, type TaskOutcome } from './run-task.js';

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
}

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
  const units = tasks.flatMap((task, index) => Array.from({ length: repeat }, (_, r) => ({ task, index, r })));
  const outcomes: TaskOutcome[] = new Array(units.length);
  let next = 0;
  let done = 0;
  const workers = Math.max(1, Math.min(options.concurrency ?? 1, units.length));
  // One run signal per task listener: at -j 1000 that is 1000 listeners, all legitimate (not a leak warning).
  const runAbort = new AbortController();
  setMaxListeners(workers + 16, runAbort.signal);
  const forwardAbort = () => runAbort.abort(options.signal?.reason);
  if (options.signal?.aborted) forwardAbort();
  else options.signal?.addEventListener('abort', forwardAbort, { once: true });
  // Workspace removals run in the background and are all awaited before run_end, so the run leaves nothing behind.
  const cleanups = new Set<Promise<void>>();
  const onCleanup = (removal: Promise<void>) => {
    cleanups.add(removal);
    void removal.finally(() => cleanups.delete(removal));
  };
  const stopping = () => options.stopSignal?.aborted === true || runAbort.signal.aborted;
  const worker = async (): Promise<void> => {
    while (next < units.length && !stopping()) {
      const slot = next++;
      const { task, index, r } = units[slot]!;
      options.onTaskStart?.(task);
      const outcome = await runTask(task, {
        run,
        source: options.source,
        // Unchanged ids without --repeat, so traces of plain runs stay comparable.
        sessionId: repeat === 1 ? `${runId}.${index}` : `${runId}.${index}.${r}`,
        repeat: r,
        keepWorkspace: options.keepWorkspaces,
        runSignal: runAbort.signal,
        onCleanup,
        ...(options.tempDir !== undefined ? { tempDir: options.tempDir } : {}),
        ...(options.sandbox ? { sandbox: options.sandbox } : {}),
        ...(options.extraDefenses ? { extraDefenses: options.extraDefenses } : {}),
      });
      outcomes[slot] = outcome;
      options.onTaskEnd?.(outcome, ++done, units.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    options.signal?.removeEventListener('abort', forwardAbort);
    while (cleanups.size > 0) await Promise.all([...cleanups]);
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

/** Identifies the suite content a run used, so two runs of different suites are not compared by mistake. */
export function configHash(tasks: LoadedTask[]): string {
  const hash = createHash('sha256');
  for (const task of tasks) hash.update(JSON.stringify({ ...task, file: undefined }));
  return hash.digest('hex').slice(0, 16);
}
