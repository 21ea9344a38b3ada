/**
 * Bash cascade (docs/harness-rules.md#bash-cascade): when a bash call fails, the LATER bash calls of
 * the same turn are cancelled — not yet started ones are skipped
 * (`cascade_skipped`, pre-execution), running ones are stopped (`aborted` with
 * error_code `cascade`, an execution kind: the body had started). Only bash
 * triggers and only bash is hit: shell commands form implicit chains (mkdir
 * fails -> make is pointless), reads and edits are independent.
 * The signals are per turn and per call, never linked to the session signal,
 * so a cascade never aborts the turn and a user abort never looks like one.
 */
import type { FailureKind } from '../../events/labels.js';
import type { StageFailure } from '../pipeline/call.js';

export const CASCADE_TOOL = 'bash';

/** Failures that break the chain. A call that was itself cancelled does not (it is a consequence, not a cause). */
export function triggersCascade(toolName: string, failureKind: FailureKind | null): boolean {
  return toolName === CASCADE_TOOL && failureKind !== null && failureKind !== 'aborted' && failureKind !== 'cascade_skipped';
}

/**
 * The cancel signal of every call the cascade cannot hit (not bash, or the
 * cascade is off). Nothing ever aborts it, so a listener on it can never run:
 * executeTool skips listening to it (a listener costs about 1 µs per call).
 */
export const NEVER_CANCELLED: AbortSignal = new AbortController().signal;

export class BashCascade {
  /** Call index of the first failing bash, or null. */
  private trippedAt: number | null = null;
  private readonly controllers = new Map<number, AbortController>();

  constructor(private readonly enabled = true) {}

  /** The cancel signal for a call that is starting now. */
  signalFor(index: number, toolName: string): AbortSignal {
    if (!this.enabled || toolName !== CASCADE_TOOL) return NEVER_CANCELLED;
    const controller = new AbortController();
    if (this.trippedAt !== null && index > this.trippedAt) controller.abort('cascade');
    else this.controllers.set(index, controller);
    return controller.signal;
  }

  /** Record a settled call; a failing bash cancels every later bash. */
  settled(index: number, toolName: string, failureKind: FailureKind | null): void {
    this.controllers.delete(index);
    if (!this.enabled || !triggersCascade(toolName, failureKind)) return;
    if (this.trippedAt === null || index < this.trippedAt) this.trippedAt = index;
    for (const [other, controller] of this.controllers) {
      if (other > index) {
        controller.abort('cascade');
        this.controllers.delete(other);
      }
    }
  }
}

/** The result text for a bash call skipped by the cascade (what to do next, docs/harness-rules.md#unknown-tool). */
export function cascadeSkippedFailure(toolName: string): StageFailure {
  return {
    kind: 'cascade_skipped',
    errorCode: 'cascade',
    message: `${toolName} was not run because an earlier ${CASCADE_TOOL} command in this turn failed and later commands usually depend on it. Fix that failure first, then run this command again if it is still needed.`,
  };
}

/** The result text for a running bash call stopped by the cascade. */
export function cascadeAbortedFailure(toolName: string): StageFailure {
  return {
    kind: 'aborted',
    errorCode: 'cascade',
    message: `${toolName} was stopped because an earlier ${CASCADE_TOOL} command in this turn failed and later commands usually depend on it. Fix that failure first, then run this command again if it is still needed.`,
  };
}
