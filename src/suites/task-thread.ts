/**
 * The worker thread of `faultline run --workers N` (thread-start.ts starts it, thread-pool.ts runs it).
 * It runs the sessions the main thread hands it with runTask, exactly as the
 * single-thread run does, with its own model source (the in-process mock or
 * a replay) and its own workspaces. Events are serialized here, the costly
 * part, and posted in batches; the main thread numbers them and writes the
 * one trace file, so every session keeps its order.
 */
import { setMaxListeners } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { RunEmitter } from '../events/emitter.js';
import { withMcpNames } from '../events/private-names.js';
import type { EventInput, EventSink, FaultlineEvent, SinkStats } from '../events/index.js';
import type { ModelSource } from './model-source.js';
import { runTask } from './run-task.js';
import { addEventUsage, emptyUsage, type SessionUsage } from './session-usage.js';
import { startTogether } from './start-together.js';
import type { LoadedTask } from './load-suite.js';
import type { FromThread, ThreadEvents, ThreadInit, ThreadSetup, ToThread } from './thread-protocol.js';

const port = parentPort!;
const init = workerData as ThreadInit;

/**
 * Collects serialized events as one string, `ts body` a line (JSON has no raw
 * newline), and posts it with the session's outcome, at 64 KB, or 50 ms after
 * the first event waiting: a structured-clone message per event or per small
 * batch cost more than the events themselves.
 */
class PostingSink implements EventSink {
  private chunk = '';
  private started: string[] = [];
  private usage: Record<string, SessionUsage> = {};
  private timer: NodeJS.Timeout | null = null;
  private written = 0;

  emit(event: EventInput): void {
    this.chunk += `${Date.now()} ${JSON.stringify(event)}\n`;
    this.written++;
    if (event.event === 'session_start') this.started.push(event.session_id);
    // Turn events carry the session's turns and tokens (model_response): tallied beside the line that carries them.
    else if ('turn' in event) addEventUsage((this.usage[event.session_id] ??= emptyUsage()), event);
    if (this.chunk.length >= 64 * 1024) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), 50);
  }

  /** The waiting events, taken out (for a message that carries them). */
  take(): ThreadEvents {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const taken = { lines: this.chunk, started: this.started, usage: this.usage };
    this.chunk = '';
    this.started = [];
    this.usage = {};
    return taken;
  }

  flush(): void {
    if (this.chunk !== '') post({ type: 'events', ...this.take() });
  }

  close(): void {
    this.flush();
  }

  stats(): SinkStats {
    return { written: this.written, failedWrites: 0, invalid: 0, firstError: null };
  }

  events(): readonly FaultlineEvent[] {
    return [];
  }
}

const post = (message: FromThread) => port.postMessage(message);

async function openSource(): Promise<ModelSource & { close?: () => Promise<void> }> {
  if (init.source.kind === 'replay') return (await import('./replay-source.js')).replayModelSource(init.source.dir);
  return (await import('./mock-source.js')).mockModelSource(init.source.options);
}

const sink = new PostingSink();
let run: RunEmitter | null = null;
let place: Pick<ThreadSetup, 'tempDir' | 'tempDirFallback'> = {};
const runAbort = new AbortController();
function setUp(setup: ThreadSetup): void {
  run = new RunEmitter(withMcpNames(sink, init.mcpNames), setup.runId);
  place = setup;
  setMaxListeners(setup.concurrency + 16, runAbort.signal);
}
const cleanups = new Set<Promise<void>>();
const onCleanup = (removal: Promise<void>) => {
  cleanups.add(removal);
  void removal.finally(() => cleanups.delete(removal));
};
// Set before the thread listens (listen() below): no session arrives before its model source is open.
let source!: Awaited<ReturnType<typeof openSource>>;

async function runOne(slot: number, task: LoadedTask, r: number, sessionId: string): Promise<void> {
  try {
    if (run === null) throw new Error('a session was sent before the run was set up');
    const { task: ran, ...outcome } = await runTask(task, {
      run,
      source,
      sessionId,
      repeat: r,
      keepWorkspace: init.keepWorkspaces,
      runSignal: runAbort.signal,
      onCleanup,
      ...(place.tempDir !== undefined ? { tempDir: place.tempDir } : {}),
      ...(place.tempDirFallback ? { tempDirFallback: true } : {}),
      ...(init.sandbox ? { sandbox: init.sandbox } : {}),
    });
    void ran;
    // The session's events travel with its outcome: the main thread writes them before it counts the task done.
    post({ type: 'outcome', slot, outcome, ...sink.take() });
  } catch (error) {
    sink.flush();
    post({ type: 'failed', slot, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

async function drain(): Promise<void> {
  while (cleanups.size > 0) await Promise.all([...cleanups]);
  await source.close?.();
  sink.flush();
  post({ type: 'drained' });
}

/** Takes sessions from the main thread, once the model source is open (a failure to open it fails the thread, as before). */
function listen(): void {
  // A suite module that calls process.exit ends this thread: what its sessions emitted still reaches the trace.
  process.on('exit', () => sink.flush());
  // Sessions received in one turn of the loop start together, so they interleave (start-together.ts says why).
  const arrive = startTogether((m: Extract<ToThread, { type: 'run' }>) => void runOne(m.slot, m.task, m.r, m.sessionId));
  port.on('message', (message: ToThread) => {
    if (message.type === 'run') arrive(message);
    else if (message.type === 'setup') setUp(message);
    else if (message.type === 'abort') runAbort.abort(message.reason);
    else void drain();
  });
  post({ type: 'ready' });
  // The first session loads the mock's transport and the SDKs behind it (~80 ms of CPU): load them now, while the main
  // thread still reads the suite, so the first sessions do not wait for them. The same modules, once; a module that
  // cannot load fails that session's open as before.
  // Only the default wire's adapter and SDK: a task pinning another wire loads its own when it opens.
  if (init.source.kind === 'mock') {
    const { transport, wire = 'anthropic' } = init.source.options;
    void import(transport === 'http' ? '../mock/loopback-model.js' : '../mock/memory-model-lazy.js').catch(() => undefined);
    void import('../mock/wire-adapter.js').then((adapters) => adapters.loadMockAdapter(wire)).catch(() => undefined);
  }
}

// Not a top-level await: the CLI's bundle is CommonJS, to load from V8's code cache (scripts/bundle-cli.mjs).
void openSource().then((opened) => {
  source = opened;
  listen();
});
