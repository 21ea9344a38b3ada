/** How `faultline run` starts one worker thread (thread-pool.ts runs them; task-thread.ts is what runs in each). */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { descriptorBudgetBuffer } from '../harness/safe-fs/fd-budget.js';
import type { ThreadInit } from './thread-protocol.js';

/**
 * A worker on this module's sibling entry. Built (dist/, .js) it starts as is;
 * from the sources (.ts: tests, `node --import tsx src/cli/bin.ts`) it first
 * registers tsx's loader in the worker, because a worker does not inherit the
 * main thread's module hooks and `--import tsx` in a worker's execArgv races
 * the worker's own entry.
 */
export function startWorker(threadInit: ThreadInit): Worker {
  // The threads share the process's descriptor table: one budget of descriptors for all (safe-fs/fd-budget.ts).
  const init = { ...threadInit, fdBudget: descriptorBudgetBuffer() };
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./task-thread.js', here), { workerData: init });
  const entry = new URL('./task-thread.ts', here).href;
  const tsx = pathToFileURL(createRequire(here).resolve('tsx/esm/api')).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { (m.register ?? m.default.register)(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, workerData: init, execArgv: withoutTsx(process.execArgv) });
}

/** execArgv without `--import tsx` / `--import=tsx` (the worker registers tsx itself). */
function withoutTsx(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if ((argv[i] === '--import' || argv[i] === '--loader') && argv[i + 1] === 'tsx') i++;
    else if (argv[i] !== '--import=tsx' && argv[i] !== '--loader=tsx') out.push(argv[i]!);
  }
  return out;
}
