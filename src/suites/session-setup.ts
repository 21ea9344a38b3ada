/**
 * A task's `setup:` script and `system_snapshot:` commands, run in its fresh
 * workspace before the session starts. Each holds a child's pipes while it
 * runs, so they take their descriptors from the process's budget first
 * (harness/safe-fs/fd-budget.ts) and wait while it is spent, as a bash call does.
 */
import { captureSnapshots } from '../harness/context/snapshots.js';
import type { FrozenSnapshot } from '../harness/defenses/types.js';
import { acquireDescriptors } from '../harness/safe-fs/fd-budget.js';
import type { CommandSandbox } from '../harness/sandbox/sandbox.js';
import type { LoadedTask } from './load-suite.js';
import { runSetup } from './task-setup.js';

/** Descriptors a setup script or a snapshot command holds while it runs (as a bash call: tools/bash.ts). */
const SETUP_DESCRIPTORS = 8;

/** Runs the task's setup script, then captures its snapshots (none without `system_snapshot`). */
export async function setupAndSnapshots(task: LoadedTask, root: string, sandbox: CommandSandbox): Promise<FrozenSnapshot[]> {
  const asked = acquireDescriptors(SETUP_DESCRIPTORS);
  const lease = asked instanceof Promise ? await asked : asked;
  try {
    if (task.setup) await runSetup(task.setup, root);
    return task.system_snapshot ? await captureSnapshots(task.system_snapshot, root, sandbox) : [];
  } finally {
    lease.release();
  }
}
