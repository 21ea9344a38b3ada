/**
 * The directory each worker thread makes its sessions' workspaces in: one per
 * worker, so the workspaces of a worker that dies are removed whole with it
 * (suites/thread-pool.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the workers' workspaces go (`faultline run --workspace-dir`, or the tmpfs the run chose itself: `fallback`;
 * default the system temp directory). Given with the run, not at the threads' start: the tmpfs choice needs the
 * whole suite read, and the threads start while it is read.
 */
export interface ThreadPoolPlace {
  dir?: string;
  fallback?: boolean;
}

/**
 * A worker's parent directory in the run's place; in the temp directory when faultline's own choice cannot take it.
 * (A workspace that falls back later, workspace-place.ts, goes straight into the temp directory, outside this parent:
 * if its worker then dies, it is left there.)
 */
export function workerParent(place: ThreadPoolPlace): string {
  try {
    return mkdtempSync(join(place.dir ?? tmpdir(), 'faultline-worker-'));
  } catch (error) {
    if (!place.fallback) throw error;
    return mkdtempSync(join(tmpdir(), 'faultline-worker-'));
  }
}

/** Removes a dead or finished worker's parent and what is left in it. */
export function removeWorkerParent(parent: string): void {
  try {
    rmSync(parent, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // a workspace still in use (a bash child of a dead worker): nothing more to do here
  }
}
