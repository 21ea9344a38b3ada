/**
 * `faultline run --workers N`: the run's sessions spread over N worker
 * threads, so a suite uses every core (one JS thread runs one core at most).
 *
 * The main thread keeps everything a person sees and the run owns: which unit
 * starts next (at most -j in flight across all workers, the least busy worker
 * first), Ctrl-C (it stops handing out units; a second one aborts the workers'
 * sessions), the progress, the outcomes, and the single trace file. Workers
 * serialize their events and post them in batches; the main thread numbers
 * them (seq) and writes them, so a session's events keep their order and the
 * file has one seq sequence. Threads, not processes: a worker starts in a
 * fraction of the time and the event batches move without a pipe.
 *
 * A worker that ends before it was handed a session (it could not start: no
 * descriptor or memory left for a new thread, a module that fails to load in
 * it) loses nothing: the run goes on on the other workers, or on the main
 * thread when none is left, and the CLI warns, naming why.
 *
 * A worker that dies (a suite module calling process.exit, an uncaught
 * exception) ends its running sessions as errors naming the task, with a
 * session_end written for each one that had started, carrying the turns and
 * tokens of that session's events already in the trace (the worker tallies
 * them beside each batch); the run starts nothing more and the CLI reports an
 * internal error.
 */
import type { Worker } from 'node:worker_threads';
import { RunEmitter } from '../events/emitter.js';
import type { EventSink } from '../events/sink.js';
import type { RunUnit, UnitExecutor } from './run-suite.js';
import type { TaskOutcome } from './run-task.js';
import { endLostSession, type HandedSession } from './lost-session.js';
import { emptyUsage, mergeUsage } from './session-usage.js';
import { forEachThreadLine, type FromThread, type ThreadEvents, type ThreadInit, type ToThread } from './thread-protocol.js';
import { startWorker } from './thread-start.js';
import { removeWorkerParent, workerParent, type ThreadPoolPlace } from './worker-parent.js';

export type { ThreadPoolPlace };

export interface ThreadPoolOptions {
  workers: number;
  init: ThreadInit;
  /** The run id the workers' sessions belong to. */
  runId: string;
  /** Starts one thread (default startWorker; a test gives one whose threads fail). */
  start?: (init: ThreadInit) => Worker;
}

/** Where the run's events go (known once the trace is open, after the threads started). */
export interface ThreadPoolOutput {
  /** The trace file: takes the workers' serialized events. */
  lines: { emitSerialized(ts: number, body: string): void };
  /** The run's event sink (with its MCP-name mode): session_end of a session whose worker died. */
  sink: EventSink;
}

export interface ThreadPool {
  /** The run's executor on these threads (one run per pool). */
  executor(output: ThreadPoolOutput, place?: ThreadPoolPlace): UnitExecutor;
  /** One line per worker that died, naming the tasks it was running (empty when none did). */
  crashes(): readonly string[];
  /** One line per worker that ended before it was handed a session, saying why and where its share ran. */
  unstarted(): readonly string[];
  /** Keeps at most `workers` threads (the run turned out smaller than the pool was started for). */
  limit(workers: number): void;
  /** Stops the threads and removes their workspaces' parents, unless the executor already ran to its end (a refused run, an error). */
  close(): void;
}

interface Thread {
  id: number;
  worker: Worker;
  /** The parent of this worker's workspaces (null when they are kept, or before the run): removed whole when the worker dies. */
  parent: string | null;
  ready: boolean;
  /** Sessions handed to it so far. */
  given: number;
  alive: boolean;
  drainAsked: boolean;
  drained: boolean;
  /** Units given to this worker and not ended yet, by slot; `started` once its session_start arrived; `usage` of its events written so far. */
  inflight: Map<number, HandedSession>;
  error: string | null;
}

/** What a worker reported before the run began (it starts while the suite is read): played back to the executor. */
type ThreadNews = { kind: 'message'; message: FromThread } | { kind: 'error'; error: unknown } | { kind: 'exit'; code: number };

/**
 * Starts the worker threads at once, so they load the harness, the SDKs and
 * the mock while the main thread is still reading the suite; the executor
 * hands them the run when it begins.
 */
export function threadPool(options: ThreadPoolOptions): ThreadPool {
  const crashes: string[] = [];
  const unstarted: string[] = [];
  const threads: Thread[] = [];
  let listener: ((t: Thread, news: ThreadNews) => void) | null = null;
  const early: [Thread, ThreadNews][] = [];
  const tell = (t: Thread, news: ThreadNews) => (listener ? listener(t, news) : early.push([t, news]));
  let closed = false;
  for (let id = 1; id <= options.workers; id++) {
    const worker = (options.start ?? startWorker)(options.init);
    const t: Thread = { id, worker, parent: null, ready: false, given: 0, alive: true, drainAsked: false, drained: false, inflight: new Map(), error: null };
    threads.push(t);
    worker.on('message', (message: FromThread) => tell(t, { kind: 'message', message }));
    worker.on('error', (error) => tell(t, { kind: 'error', error }));
    worker.on('exit', (code) => tell(t, { kind: 'exit', code }));
  }
  const stopThread = (t: Thread) => {
    void t.worker.terminate();
    removeParent(t);
  };
  const close = () => {
    if (closed) return;
    closed = true;
    for (const t of threads) stopThread(t);
  };
  const limit = (workers: number) => {
    // Threads beyond the run's need, never handed a unit: stopped quietly.
    for (const t of threads.splice(Math.max(1, workers))) {
      t.alive = false;
      stopThread(t);
    }
  };
  const executor = (output: ThreadPoolOutput, place: ThreadPoolPlace = {}): UnitExecutor => ({ units, concurrency, runSignal, stopping, onStart, onEnd, runHere }) =>
    new Promise<void>((resolve) => {
      limit(Math.min(concurrency, units.length));
      // Each worker's workspaces under a directory of its own (removed whole if the worker dies), unless kept.
      for (const t of threads) if (t.alive && !options.init.keepWorkspaces) t.parent = workerParent(place);
      const run = new RunEmitter(output.sink, options.runId);
      let next = 0;
      let total = 0;
      /** The units no thread got, running on the main thread (every thread ended before it was handed one). */
      let here: Promise<void> | null = null;
      let finished = false;
      const bySession = new Map<string, { thread: Thread; slot: number }>();

      const finish = () => {
        if (finished) return;
        finished = true;
        runSignal.removeEventListener('abort', onAbort);
        close();
        resolve();
      };
      // Nothing in flight and nothing more to start: the workers remove their workspaces, then the run ends.
      const maybeFinish = () => {
        if (total > 0 || here !== null) return;
        const live = threads.filter((t) => t.alive);
        // More to start once a worker is ready (pump comes back then).
        if (next < units.length && !stopping() && crashes.length === 0 && live.length > 0) return;
        for (const t of live) {
          if (!t.drainAsked) {
            t.drainAsked = true;
            send(t, { type: 'drain' });
          }
        }
        if (live.every((t) => t.drained)) finish();
      };
      const pump = () => {
        while (next < units.length && total < concurrency && !stopping() && crashes.length === 0) {
          let best: Thread | null = null;
          for (const t of threads) if (t.alive && t.ready && (best === null || t.inflight.size < best.inflight.size)) best = t;
          if (best === null) break;
          const unit = units[next++]!;
          total++;
          best.given++;
          best.inflight.set(unit.slot, { unit, started: false, at: performance.now(), usage: emptyUsage() });
          bySession.set(unit.sessionId, { thread: best, slot: unit.slot });
          onStart(unit);
          send(best, { type: 'run', slot: unit.slot, task: unit.task, r: unit.r, sessionId: unit.sessionId });
        }
        maybeFinish();
      };
      const end = (t: Thread, slot: number, outcome: TaskOutcome) => {
        const entry = t.inflight.get(slot);
        if (!entry) return;
        t.inflight.delete(slot);
        bySession.delete(entry.unit.sessionId);
        total--;
        onEnd(entry.unit, outcome);
      };
      const died = (t: Thread, why: string) => {
        if (!t.alive || finished) return;
        t.alive = false;
        if (t.drainAsked && t.inflight.size === 0) {
          // It had finished its work: a failure while closing still loses nothing but is worth saying.
          t.drained = true;
          if (why !== 'exit code 0' && why !== 'terminated') crashes.push(`worker ${t.id} failed while finishing: ${why}`);
          maybeFinish();
          return;
        }
        // Its sessions' workspaces die with it: nobody is left to remove them one by one.
        removeParent(t);
        if (t.given === 0 && crashes.length === 0) {
          goOnWithout(t, why);
          return;
        }
        const lost = [...t.inflight.values()];
        crashes.push(
          `worker ${t.id} stopped (${why})` +
            (lost.length > 0 ? ` while running ${lost.map((l) => `${l.unit.task.suite}/${l.unit.task.id}`).join(', ')}` : ' between tasks'),
        );
        for (const session of lost) end(t, session.unit.slot, endLostSession(run, session, why));
        maybeFinish();
      };
      /** A thread that ended before it was handed a session lost none: the others take its share, or this thread does. */
      const goOnWithout = (t: Thread, why: string) => {
        const others = threads.filter((o) => o.alive).length;
        if (others > 0 || next >= units.length || stopping()) {
          unstarted.push(`worker ${t.id} could not start (${why})${others > 0 ? `; ${others === 1 ? 'the other worker' : `the other ${others} workers`} took its share` : ''}`);
          pump();
          return;
        }
        unstarted.push(`worker ${t.id} could not start (${why}), nor could any other; the main thread ran the sessions`);
        const rest = units.slice(next);
        next = units.length;
        here = runHere(rest).then(
          () => {
            here = null;
            maybeFinish();
          },
          (error: unknown) => {
            here = null;
            crashes.push(`the main thread, running the sessions no worker could take, failed: ${error instanceof Error ? error.message : String(error)}`);
            maybeFinish();
          },
        );
      };
      const write = ({ lines, started, usage }: ThreadEvents) => {
        forEachThreadLine(lines, (ts, body) => output.lines.emitSerialized(ts, body));
        for (const id of started) {
          const where = bySession.get(id);
          const entry = where ? where.thread.inflight.get(where.slot) : undefined;
          if (entry) entry.started = true;
        }
        for (const id in usage) {
          const where = bySession.get(id);
          const entry = where ? where.thread.inflight.get(where.slot) : undefined;
          if (entry) mergeUsage(entry.usage, usage[id]!);
        }
      };
      const onMessage = (t: Thread, message: FromThread) => {
        switch (message.type) {
          case 'events':
            write(message);
            return;
          case 'outcome': {
            write(message);
            const entry = t.inflight.get(message.slot);
            if (entry) end(t, message.slot, { ...message.outcome, task: entry.unit.task });
            pump();
            return;
          }
          case 'failed':
            // runTask threw: a bug in faultline, not a task result. The worker is no longer trusted.
            void t.worker.terminate();
            died(t, `runTask threw: ${message.message.split('\n')[0]}`);
            return;
          case 'ready':
            t.ready = true;
            pump();
            return;
          case 'drained':
            t.drained = true;
            maybeFinish();
            return;
        }
      };
      function send(t: Thread, message: ToThread): void {
        if (t.alive) t.worker.postMessage(message);
      }
      const onAbort = () => {
        for (const t of threads) send(t, { type: 'abort', reason: runSignal.reason });
      };
      runSignal.addEventListener('abort', onAbort, { once: true });

      const onNews = (t: Thread, news: ThreadNews) => {
        if (news.kind === 'message') onMessage(t, news.message);
        else if (news.kind === 'error') t.error ??= news.error instanceof Error ? news.error.message : String(news.error);
        else if (threads.includes(t)) died(t, t.error ?? (finished ? 'terminated' : `exit code ${news.code}`));
      };
      for (const t of threads) {
        const where = t.parent ?? place.dir;
        const fallback = place.fallback === true && where !== undefined && where.startsWith(place.dir + '/');
        send(t, { type: 'setup', runId: options.runId, concurrency, ...(where !== undefined ? { tempDir: where } : {}), ...(fallback ? { tempDirFallback: true } : {}) });
      }
      listener = onNews;
      for (const [t, news] of early.splice(0)) onNews(t, news);
      if (runSignal.aborted) onAbort();
      pump();
    });
  return { executor, crashes: () => crashes, unstarted: () => unstarted, limit, close };
}

function removeParent(t: Thread): void {
  if (t.parent === null) return;
  removeWorkerParent(t.parent);
  t.parent = null;
}
