/**
 * Runs the model's regular expression off the event loop. JavaScript's
 * engine backtracks, so a pattern like `(a+)+$` on a long line runs for
 * minutes inside one `test()` call; on the main thread that call would hold
 * every task of the run, and no timer could fire to stop it. In a worker
 * thread the loop stays free and the call's timeout (or abort) terminates
 * the worker mid-match: the pattern costs its own call, nothing more.
 * Workers are reused between calls while they finish in time (starting one
 * costs tens of milliseconds); a stopped one is thrown away.
 */
import { Worker } from 'node:worker_threads';

/** CommonJS source of the worker (eval'd: it runs the same from the TypeScript sources and the build). */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
let cached = null;
parentPort.on('message', ({ pattern, flags, text }) => {
  try {
    if (cached === null || cached.source !== pattern || cached.flags !== flags) cached = { source: pattern, flags, re: new RegExp(pattern, flags) };
    const lines = text.split(/\\r?\\n/);
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    const hits = [];
    for (let i = 0; i < lines.length; i += 1) if (cached.re.test(lines[i])) hits.push(i);
    parentPort.postMessage({ hits });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
});
`;

const IDLE_MAX = 2;
const idle: Worker[] = [];

export class RegexStopped extends Error {
  constructor(readonly why: 'aborted' | 'budget') {
    super(why === 'budget' ? 'the regular expression ran past its time budget' : 'aborted');
  }
}

/** One call's matcher: `match(text)` gives the 0-based indices of matching lines. */
export class RegexMatcher {
  private worker: Worker | null = null;
  private readonly deadline: number;

  constructor(
    private readonly pattern: string,
    private readonly flags: string,
    private readonly signal: AbortSignal,
    budgetMs: number,
  ) {
    this.deadline = Date.now() + budgetMs;
  }

  match(text: string): Promise<number[]> {
    const worker = (this.worker ??= idle.pop() ?? new Worker(WORKER_SOURCE, { eval: true }));
    worker.ref();
    return new Promise<number[]>((resolve, reject) => {
      const stopWith = (why: 'aborted' | 'budget') => {
        cleanup();
        this.worker = null;
        void worker.terminate(); // stops a match in progress, wherever it is
        reject(new RegexStopped(why));
      };
      const onAbort = () => stopWith('aborted');
      const timer = setTimeout(() => stopWith('budget'), Math.max(0, this.deadline - Date.now()));
      const onMessage = (m: { hits?: number[]; error?: string }) => {
        cleanup();
        if (m.error !== undefined) reject(new Error(m.error));
        else resolve(m.hits ?? []);
      };
      const onError = (error: Error) => {
        cleanup();
        this.worker = null;
        reject(error);
      };
      const cleanup = () => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      if (this.signal.aborted) return stopWith('aborted');
      this.signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ pattern: this.pattern, flags: this.flags, text });
    });
  }

  /** Hands a healthy worker back for the next call (or ends it). */
  release(): void {
    const w = this.worker;
    this.worker = null;
    if (w === null) return;
    w.unref(); // an idle worker never keeps the process alive
    if (idle.length < IDLE_MAX) idle.push(w);
    else void w.terminate();
  }
}
