/**
 * Every defense faultline ships, in one list (docs/harness-rules.md#dead-defense: a defense that
 * exists must be shown to fire — tests/defenses checks each has fault
 * scenarios and controls, and that this list and the contract's
 * ShippedDefense names agree). A session arms the ones that are on by
 * default, plus those a suite enables, minus those it switches off, plus the
 * suite's own defense modules.
 */
import type { DefenseHookPoint } from '../../events/labels.js';
import { cutToolCallGuard } from './cut-tool-call-guard.js';
import { dangerousCommandBlock } from './dangerous-command-block.js';
import { denialFuse } from './denial-fuse.js';
import { emptyArgsRetryCap } from './empty-args-retry-cap.js';
import { endTurnFallthrough } from './end-turn-fallthrough.js';
import { factSourceConflict } from './fact-source-conflict.js';
import { identicalCallLoop } from './identical-call-loop.js';
import { injectionGuard } from './injection-guard.js';
import { lowYieldSpin } from './low-yield-spin.js';
import { protectedPathGuard } from './protected-path-guard.js';
import { reminderCap } from './reminder-cap.js';
import { shapeLoop } from './shape-loop.js';
import { spillReadLoop } from './spill-read-loop.js';
import { stopReasonFailClosed } from './stop-reason-fail-closed.js';
import { tokenBudget } from './token-budget.js';
import { HOOK_POINTS, isHookDefense, type Defense, type DefenseSessionContext, type HookDefense } from './types.js';

export const SHIPPED_DEFENSES: readonly Defense[] = [
  endTurnFallthrough,
  cutToolCallGuard,
  stopReasonFailClosed,
  tokenBudget,
  emptyArgsRetryCap,
  identicalCallLoop,
  lowYieldSpin,
  factSourceConflict,
  injectionGuard,
  reminderCap,
  shapeLoop,
  dangerousCommandBlock,
  protectedPathGuard,
  denialFuse,
  spillReadLoop,
];

export function shippedDefense(name: string): Defense | undefined {
  return SHIPPED_DEFENSES.find((d) => d.name === name);
}

export interface DefenseSelection {
  /** Names switched off (shipped or user). */
  disabled?: readonly string[];
  /** Names switched on that are off by default. */
  enabled?: readonly string[];
  /** The suite's own defense modules. */
  user?: readonly HookDefense[];
}

/** Every defense a session can arm: shipped first, then the user's (a user name shadows nothing: loading rejects clashes). */
export function availableDefenses(selection: DefenseSelection): Defense[] {
  return [...SHIPPED_DEFENSES, ...(selection.user ?? [])];
}

/**
 * The defenses a session arms: on by default or enabled, not disabled, and
 * applicable to the session (`appliesTo`; the token budget only with a budget).
 */
export function armedDefenses(selection: DefenseSelection, context: DefenseSessionContext, hasTokenBudget: boolean): Defense[] {
  const disabled = new Set(selection.disabled ?? []);
  const enabled = new Set(selection.enabled ?? []);
  return availableDefenses(selection).filter((d) => {
    if (disabled.has(d.name) || !(d.defaultOn || enabled.has(d.name))) return false;
    if (d === tokenBudget) return hasTokenBudget;
    return isHookDefense(d) ? (d.appliesTo?.(context) ?? true) : true;
  });
}

/** Where a defense is evaluated: its declared point, or the first hook its session implements. */
export function hookPointOf(defense: Defense, hooks?: object): DefenseHookPoint | undefined {
  if (!isHookDefense(defense)) return defense.evaluatedAt;
  return HOOK_POINTS.find(([hook]) => hooks !== undefined && hook in hooks && typeof (hooks as Record<string, unknown>)[hook] === 'function')?.[1];
}
