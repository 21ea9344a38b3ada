/**
 * `verifyDefense()`: what `faultline verify-defense` does, returning the
 * document `--json` prints: shipped defense names or defense module paths
 * (or `all: true`), over the shipped fault catalog or your own suites.
 */
import { loadSuites } from '../suites/load-suite.js';
import { mockModelSource } from '../suites/mock-source.js';
import { verifyJson } from '../suites/verify/render.js';
import { resolveDefenses } from '../suites/verify/resolve-defenses.js';
import { shippedSuitePaths } from '../suites/verify/shipped-suites.js';
import { verifyDefenses } from '../suites/verify/verify-defense.js';
import { bubblewrapProblem } from '../harness/sandbox/sandbox.js';
import type { SandboxMode } from '../events/labels.js';

export interface VerifyDefenseOptions {
  /** Every defense the scenarios name (with the shipped catalog: every shipped defense). */
  all?: boolean;
  /** Suite files or directories with fault scenarios and controls (default: the shipped catalog). */
  suites?: readonly string[];
  concurrency?: number;
  /** OS sandbox of the runs with a defense off (default required: skipped, with the reason, where there is none). */
  mutationSandbox?: SandboxMode;
}

export async function verifyDefense(defenses: string | readonly string[], options: VerifyDefenseOptions = {}) {
  const targets = typeof defenses === 'string' ? [defenses] : [...defenses];
  const tasks = loadSuites(options.suites ? [...options.suites] : shippedSuitePaths());
  const resolved = await resolveDefenses(targets, options.all === true, tasks, options.suites === undefined);
  const source = mockModelSource();
  try {
    const verdicts = await verifyDefenses({ defenses: resolved, tasks, source, concurrency: options.concurrency ?? 4, mutationSandbox: options.mutationSandbox ?? 'required' });
    return verifyJson(verdicts, bubblewrapProblem());
  } finally {
    await source.close();
  }
}
