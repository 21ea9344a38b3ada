/**
 * One session's defenses at work: arms them, runs the hook defenses at their
 * points in the turn, and carries out each verdict in exactly one place
 * (`carryOut`), which is also the one place a hook defense's trigger is
 * counted (docs/harness-rules.md#judged-vs-triggered). Wired defenses (loop guards, the permission chain,
 * the result limiter) report through `meter` from the stage that applies them.
 */
import type { SessionEmitter } from '../../events/emitter.js';
import type { DefenseAction } from '../../events/labels.js';
import type { TextBlock } from '../../providers/types.js';
import { inOrder, isPromiseLike, type Settles } from './in-order.js';
import { DefenseMeter } from './meter.js';
import { armedDefenses, hookPointOf, type DefenseSelection } from './registry.js';
import { Reminders } from './reminders.js';
import { packedMap } from '../packed-map.js';
import {
  isHookDefense,
  type DefenseHooks,
  type DefenseScope,
  type DefenseSessionContext,
  type HookDefense,
  type MaybeVerdict,
  type ResponseView,
  type SettledCallView,
  type ToolCallView,
  type TurnView,
  type Verdict,
} from './types.js';

export interface DefenseRuntimeOptions extends DefenseSelection {
  emitter: SessionEmitter;
  context: DefenseSessionContext;
  hasTokenBudget: boolean;
  /** Reminders per session before the wrap-up (default 3). */
  maxReminders?: number;
  /** Test-only (harness/faults.ts): armed and evaluated, never acting. */
  silenced?: readonly string[];
  /** Test-only (harness/faults.ts): armed, hooks never called. */
  unwired?: readonly string[];
  /** Test-only (harness/faults.ts): defense_stats counts evaluations as triggers. */
  evaluationsAsTriggers?: readonly string[];
}

/** What the pipeline does with a call a defense judged before it ran. */
export type CallGuardVerdict = { block: string; defense: string } | { ask: string; defense: string };

interface Active {
  defense: HookDefense;
  hooks: DefenseHooks;
}

export class DefenseRuntime {
  readonly meter: DefenseMeter;
  readonly reminders: Reminders;
  /** Set by a `stop` verdict: the loop ends once the current turn's results are recorded. */
  stopRequested: { defense: string; reason: string } | null = null;
  /** Hooks that threw: a broken defense must not look green (the runner fails the session). */
  readonly hookErrors: string[] = [];
  private readonly active: Active[];
  /** Tool names as event labels (`<unknown>` for names the registry does not know). */
  private label: (tool: string) => string = (tool) => tool;

  constructor(options: DefenseRuntimeOptions) {
    const armed = armedDefenses(options, options.context, options.hasTokenBudget);
    const sessions = packedMap(armed.filter(isHookDefense), (defense) => ({ defense, hooks: defense.session(options.context) }));
    const unwired = new Set(options.unwired ?? []);
    this.active = sessions.filter((a) => !unwired.has(a.defense.name));
    const hooksOf = new Map(sessions.map((a) => [a.defense, a.hooks]));
    this.meter = new DefenseMeter(
      options.emitter,
      packedMap(armed, (d) => ({ name: d.name, at: hookPointOf(d, hooksOf.get(d as HookDefense)), judges: d.judges })),
      options.silenced ?? [],
      options.evaluationsAsTriggers ?? [],
    );
    this.reminders = new Reminders(this.meter, options.maxReminders);
  }

  get armed(): string[] {
    return this.meter.armed;
  }

  /** Some armed defense judges calls before they run (the pipeline's defense stage is skipped otherwise). */
  get guardsCalls(): boolean {
    return this.active.some((a) => typeof a.hooks.beforeToolCall === 'function');
  }

  acts(name: string): boolean {
    return this.meter.acts(name);
  }

  /** After a model response, before its calls run. Returns the reason when the loop must stop here. */
  afterModelResponse(view: ResponseView): Settles<string | null> {
    // The forced wrap-up (reminders.ts): the last reminder said a tool call ends the session.
    if (this.reminders.wrappingUp && view.toolCalls.length > 0) {
      this.stopRequested ??= { defense: 'reminder_cap', reason: 'The session was asked to wrap up and answer without tools; this call was not run.' };
      return this.stopRequested.reason;
    }
    const active = this.active;
    return inOrder(
      active.length,
      (i) => this.judge(active[i]!, 'afterModelResponse', view, view.turn, null),
      () => this.stopRequested?.reason ?? null,
    );
  }

  /** Before one call runs (the pipeline's defense stage). */
  async beforeToolCall(view: ToolCallView, label: string): Promise<CallGuardVerdict | null> {
    for (const a of this.active) {
      const verdict = await this.judge(a, 'beforeToolCall', view, view.turn, label);
      if (verdict) return verdict;
    }
    if (this.stopRequested) return { block: this.stopRequested.reason, defense: this.stopRequested.defense };
    return null;
  }

  /** After a turn's calls settled: each call in order, then the turn. */
  afterTurn(view: TurnView, label: (tool: string) => string): Settles<void> {
    this.label = label;
    const active = this.active;
    const perCall = view.calls.length * active.length;
    return inOrder(
      perCall + active.length,
      (i) => {
        if (i >= perCall) return this.judge(active[i - perCall]!, 'afterTurn', view, view.turn, null);
        const call = view.calls[Math.floor(i / active.length)]!;
        return this.judge(active[i % active.length]!, 'afterToolCall', call, view.turn, label(call.tool));
      },
      () => this.reminders.judgeTurn(),
    );
  }

  /** Reminders for the user message after this turn's results. */
  takeReminders(): TextBlock[] {
    return this.reminders.take();
  }

  emitStats(): void {
    this.meter.emitStats();
  }

  /** A hook's verdict carried out: at once when the hook answered at once, else once its promise settled. */
  private judge<K extends keyof DefenseHooks>(
    a: Active,
    point: K,
    view: Parameters<NonNullable<DefenseHooks[K]>>[0],
    turn: number,
    tool: string | null,
  ): Settles<CallGuardVerdict | null> {
    const hook = a.hooks[point] as ((v: typeof view) => MaybeVerdict | Promise<MaybeVerdict>) | undefined;
    // A call outside what the defense declares it judges is not an evaluation: the count (and the
    // report's evidence, which reads the same declaration) covers only the events it judges.
    if (!hook || !judges(a.defense.judges, point, view) || !this.meter.evaluated(a.defense.name)) return null;
    let verdict: MaybeVerdict | Promise<MaybeVerdict>;
    try {
      verdict = hook.call(a.hooks, view);
    } catch (error) {
      return this.threw(a, point, error);
    }
    if (isPromiseLike(verdict)) {
      return Promise.resolve(verdict).then(
        (settled) => this.verdictOf(a, settled, point, turn, tool),
        (error: unknown) => this.threw(a, point, error),
      );
    }
    return this.verdictOf(a, verdict, point, turn, tool);
  }

  private threw(a: Active, point: keyof DefenseHooks, error: unknown): null {
    this.hookErrors.push(`defense ${a.defense.name} threw in ${point}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }

  private verdictOf(a: Active, verdict: MaybeVerdict, point: keyof DefenseHooks, turn: number, tool: string | null): CallGuardVerdict | null {
    if (!verdict || !this.meter.acts(a.defense.name)) return null;
    return this.carryOut(a.defense.name, verdict, point, turn, verdict.tool !== undefined ? this.label(verdict.tool) : tool);
  }

  /** The one place a hook defense's verdict takes effect and its trigger is counted. */
  private carryOut(name: string, verdict: Verdict, point: keyof DefenseHooks, turn: number, tool: string | null): CallGuardVerdict | null {
    const fire = (action: DefenseAction) => this.meter.triggered(name, turn, action, tool);
    if ('hint' in verdict) {
      if (this.reminders.offer(name, verdict.hint, turn) === 'sent') fire('hint');
      return null;
    }
    if ('alert' in verdict) {
      fire('alert');
      return null;
    }
    if ('stop' in verdict) {
      if (this.stopRequested) return null;
      this.stopRequested = { defense: name, reason: verdict.stop };
      fire('stop');
      return point === 'beforeToolCall' ? { block: verdict.stop, defense: name } : null;
    }
    if (point !== 'beforeToolCall') {
      this.hookErrors.push(`defense ${name} returned ${'block' in verdict ? 'block' : 'ask'} from ${point}; only beforeToolCall can block or ask`);
      return null;
    }
    if ('block' in verdict) {
      fire('block');
      return { block: verdict.block, defense: name };
    }
    fire('ask');
    return { ask: verdict.ask, defense: name };
  }
}

/** Whether a call-level hook sees this call, by the defense's declared scope (turn-level hooks always run). */
function judges(scope: DefenseScope | undefined, point: keyof DefenseHooks, view: unknown): boolean {
  if (!scope || (point !== 'beforeToolCall' && point !== 'afterToolCall')) return true;
  const call = view as ToolCallView & { isError?: boolean };
  if (scope.tools && !scope.tools.includes(call.tool)) return false;
  return !(scope.successesOnly && point === 'afterToolCall' && call.isError === true);
}
