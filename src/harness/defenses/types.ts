/**
 * The defense API (docs/harness-rules.md#degeneration-fallbacks, docs/harness-rules.md#green-but-broken, docs/harness-rules.md#zero-trigger-triage). A defense declares what it guards,
 * where that rule comes from, whether it is on by default and how it acts;
 * the harness arms it, counts every evaluation, and emits `defense_trigger`
 * at the one point where its verdict is carried out (never in a predicate
 * that runs on every check, docs/harness-rules.md#judged-vs-triggered). Shipped defenses and a user's own
 * (a suite's `defenses:` module) use the same API and are reported alike.
 */
import type { DefenseAction, DefenseHookPoint, FailureKind, StopClass } from '../../events/labels.js';
import type { Usage } from '../../providers/types.js';

export interface DefenseInfo {
  /** Its label in events and reports (`DEFENSE_NAME_PATTERN`). */
  readonly name: string;
  /** The failure it guards against, in one sentence. */
  readonly guards: string;
  /** Where the rule comes from: a link into docs/harness-rules.md, a public source, a post-mortem. */
  readonly source: string;
  /** Armed unless a suite switches it off; false: only when a suite enables it. */
  readonly defaultOn: boolean;
  /** What it does when it fires. */
  readonly action: DefenseAction;
  /**
   * The part of its evaluation point's events it judges, when not all of
   * them: a defense that only checks bash commands is not evaluated on a read's
   * permission check. Recorded on defense_stats, so the report's triage counts
   * only these events as evidence: a trace without any of them shows the
   * defense "not reached", never "wiring broken". Absent: every event there.
   */
  readonly judges?: DefenseScope;
}

export interface DefenseScope {
  /** Only calls of these tools (by name). */
  readonly tools?: readonly string[];
  /** Only calls that succeeded (at `tool_result`: a rule on the output a tool produced). */
  readonly successesOnly?: boolean;
}

/**
 * What a defense decided. Return nothing (or null/false) when it does not
 * fire. Each verdict is carried out by the harness, which then counts the
 * trigger:
 * - `hint`: a user-side reminder, marked with the defense's name, de-duplicated
 *   and capped across the session (reminder_cap forces a wrap-up past the cap);
 * - `block` (beforeToolCall): the call is not run; the text is its result
 *   (failure kind `defense_blocked`);
 * - `ask` (beforeToolCall): the call needs approval; headless, it is refused;
 * - `stop`: the loop ends after this point (stop `defense_stop`); calls not run
 *   are answered with the text;
 * - `alert`: reported only, nothing changes (a detector too broad to act on).
 */
export type Verdict = ({ hint: string } | { block: string } | { ask: string } | { stop: string } | { alert: string }) & {
  /** The tool the trigger is about, when a turn-level hook names one (a call-level hook's own tool otherwise). */
  tool?: string;
};
export type MaybeVerdict = Verdict | null | undefined | false | void;

export interface ResponseView {
  readonly turn: number;
  /** The assistant's text of this turn. */
  readonly text: string;
  readonly stopClass: StopClass;
  readonly toolCalls: readonly ToolCallView[];
  /** Tokens used so far in the session, this response included. */
  readonly usage: Readonly<Usage>;
}

export interface ToolCallView {
  readonly turn: number;
  readonly id: string;
  readonly tool: string;
  /** The input the call runs with (after a PreToolUse hook); the model's input when it never parsed. */
  readonly input: unknown;
  /** The wire arguments were empty, malformed or not an object. */
  readonly inputError: 'empty' | 'malformed' | 'not_object' | null;
}

export interface SettledCallView extends ToolCallView {
  readonly isError: boolean;
  /** null: succeeded. */
  readonly failureKind: FailureKind | null;
  /** The tool's own output before truncation ('' when it printed nothing) for successes; the error text sent to the model for failures. */
  readonly output: string;
}

export interface TurnView {
  readonly turn: number;
  readonly text: string;
  readonly calls: readonly SettledCallView[];
  readonly usage: Readonly<Usage>;
}

export interface DefenseSessionContext {
  readonly workspace: string;
  /** The system prompt as sent (static for the session, docs/harness-rules.md#stable-prefix). */
  readonly system: string;
  /** Facts frozen into the system prompt at session start (see fact-source-conflict.ts). */
  readonly snapshots: readonly FrozenSnapshot[];
}

export interface FrozenSnapshot {
  readonly name: string;
  readonly value: string;
  /** Reads the live value now (null when it cannot be read). */
  read(): Promise<string | null>;
}

type Hook<T> = (view: T) => MaybeVerdict | Promise<MaybeVerdict>;

/**
 * A session's hooks. Each call of a hook is one evaluation. Hooks run in the
 * harness's own flow, so they must not throw (a throw counts as no verdict and
 * is reported once on stderr by the runner).
 */
export interface DefenseHooks {
  /** After each model response, before any of its calls run. `stop` ends the loop without running them. */
  afterModelResponse?: Hook<ResponseView>;
  /** Before each call runs (after permission and validation): `block`, `ask`, `alert` or `stop`. */
  beforeToolCall?: Hook<ToolCallView>;
  /** After each call of a turn settled, in call order: `hint`, `alert` or `stop`. */
  afterToolCall?: Hook<SettledCallView>;
  /** After all results of a turn, before they are sent: `hint`, `alert` or `stop`. */
  afterTurn?: Hook<TurnView>;
}

/** A defense whose rule runs through the hooks above (every user defense, most shipped ones). */
export interface HookDefense extends DefenseInfo {
  /** Fresh hooks (and state) for one session. */
  session(context: DefenseSessionContext): DefenseHooks;
  /**
   * False: the session has nothing this defense can judge (no frozen facts,
   * no budget), so it is not armed there — rather than armed and never able
   * to fire, which a report could not tell from a dead defense. Default true.
   */
  appliesTo?(context: DefenseSessionContext): boolean;
}

/**
 * A defense whose rule lives inside a harness stage (the loop's stop-reason
 * whitelist, the permission chain, the result limiter): that stage evaluates
 * it at `evaluatedAt` and reports through the session's meter.
 */
export interface WiredDefense extends DefenseInfo {
  readonly evaluatedAt: DefenseHookPoint;
}

export type Defense = HookDefense | WiredDefense;

export function isHookDefense(defense: Defense): defense is HookDefense {
  return typeof (defense as HookDefense).session === 'function';
}

/** The hook points in the order a turn reaches them: a defense's first one names where it is evaluated. */
export const HOOK_POINTS: ReadonlyArray<[keyof DefenseHooks, DefenseHookPoint]> = [
  ['afterModelResponse', 'model_response'],
  ['beforeToolCall', 'tool_call'],
  ['afterToolCall', 'tool_result'],
  ['afterTurn', 'turn_end'],
];
