/**
 * The CLI's own process lowers the priority of the threads it started with except the main one: V8's platform
 * workers (TurboFan's background compiles, the garbage collector's parallel and concurrent tasks) and Node's
 * helper threads. Node starts four platform workers whatever the machine; on a runner with two cores they compete
 * with the main thread, which runs the sessions, for the CPU, and a busy run is slowed by its own background work.
 * At the lowest priority (nice 19) they still get every idle core, only no longer the main thread's. Measured on
 * the bench's 2,000 tasks on 2 cores (12 alternated runs each): 2.88 -> 2.72 s median wall, 2.55 -> 2.28 s best.
 *
 * Linux only (a thread's own nice value; elsewhere nothing is done). Threads started later (a worker thread of
 * `--workers`, libuv's pool, a tool's child process) take the priority of the thread that starts them, the main
 * one's. A library user's process is never touched: only bin.ts calls this.
 */
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

export const BACKGROUND_NICE = 19;

/** Lowers every thread of this process but the main one to BACKGROUND_NICE; returns how many it lowered. */
export function lowerBackgroundThreads(): number {
  if (process.platform !== 'linux') return 0;
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const tid of tids) {
    if (Number(tid) === process.pid) continue;
    try {
      setPriority(Number(tid), BACKGROUND_NICE);
      lowered++;
    } catch {
      // a thread that ended meanwhile, or a system that refuses: the run goes on at the default priority
    }
  }
  return lowered;
}
