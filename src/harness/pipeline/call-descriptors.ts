/**
 * A tool call's share of the process's descriptor budget (safe-fs/fd-budget.ts),
 * and what an EMFILE/ENFILE of the harness's own becomes.
 *
 * Why: a call holds descriptors while it waits (a file tool's directory and
 * file, a snapshot's, a command's pipes). At `-j 1000` the calls of a
 * thousand sessions at once outgrow the process's limit and the open that
 * fails is some task's tool call, reported to the model as its failure,
 * though the model did nothing wrong. So a call takes its descriptors first
 * (its snapshot and body run within them) and waits while the budget is
 * spent.
 *
 * An EMFILE/ENFILE the body still throws (a holder outside the budget, or
 * another process filling the system's table) is a shortage of the harness,
 * not a mistake of the model: the call runs again once descriptors were given
 * back, when running it again is sound — a read-only tool, or one whose
 * descriptors are all opened before its one committing step
 * (`opensBeforeEffects`: the failed open means nothing changed). Only a
 * shortage that outlasts SHORTAGE_WAIT_MS reaches the model, as the
 * `exception` it is (a fault of the harness, never `tool_error`).
 */
import { acquireDescriptors, isDescriptorShortageError, shortagePause, SHORTAGE_WAIT_MS, type DescriptorLease } from '../safe-fs/fd-budget.js';
import type { Tool } from '../tools/tool.js';
import type { ExecOutcome } from './execute.js';

/** Descriptors a call holds at once when its tool does not say (a directory, a file, a temp file, one spare). */
export const CALL_DESCRIPTORS = 4;

/** The call's descriptors from the budget: at once when there are enough, else a promise. */
export function callLease(tool: Tool): DescriptorLease | Promise<DescriptorLease> {
  return acquireDescriptors(tool.descriptors ?? CALL_DESCRIPTORS);
}

/** True for an outcome that failed because the process or the system ran out of descriptors. */
export function isDescriptorShortage(outcome: ExecOutcome): boolean {
  if (outcome.kind === 'exception') return isDescriptorShortageError(outcome.error);
  if (outcome.kind === 'tool_error') return outcome.output.errorCode === 'EMFILE' || outcome.output.errorCode === 'ENFILE';
  return false;
}

/**
 * Runs `body` (the call's execution) within `lease`, again after a shortage while that is sound: the lease is given
 * back for the wait (others finish and free theirs), taken again for the next try. Returns the lease now held.
 */
export async function runWithinShortage(
  tool: Tool,
  lease: DescriptorLease,
  body: () => Promise<ExecOutcome>,
  signal: AbortSignal,
): Promise<{ outcome: ExecOutcome; lease: DescriptorLease }> {
  const started = performance.now();
  let held = lease;
  for (let attempt = 0; ; attempt++) {
    const outcome = await body();
    const retry = (tool.readOnly || tool.opensBeforeEffects === true) && isDescriptorShortage(outcome);
    if (!retry || signal.aborted || performance.now() - started >= SHORTAGE_WAIT_MS) return { outcome, lease: held };
    held.release();
    await shortagePause(attempt);
    const next = callLease(tool);
    held = next instanceof Promise ? await next : next;
  }
}
