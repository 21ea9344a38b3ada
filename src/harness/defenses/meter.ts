/**
 * Counts evaluations and triggers per armed defense (docs/harness-rules.md#judged-vs-triggered: count
 * triggers, not judgements) and emits `defense_trigger` at the moment a
 * defense acts and `defense_stats` once at session end, so the report can
 * tell a dead defense (never evaluated) from an unreached one.
 */
import type { DefenseAction, DefenseHookPoint } from '../../events/labels.js';
import type { SessionEmitter, SessionFields } from '../../events/emitter.js';
import type { DefenseScope } from './types.js';

/** The names a scope may record (ToolLabel's pattern): they come from a defense's code, never from the model. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

interface Counts {
  evaluated: number;
  triggered: number;
  at: DefenseHookPoint | undefined;
  judges: DefenseScope | undefined;
}

/** What the pipeline's stages use to count a defense (the session's meter, or a streaming attempt's held one). */
export interface DefenseCounter {
  isArmed(name: string): boolean;
  acts(name: string): boolean;
  evaluated(name: string): boolean;
  triggered(name: string, turn: number, action: DefenseAction, tool?: string | null): void;
  check(name: string, turn: number, fired: boolean, action: DefenseAction, tool?: string | null): boolean;
}

export class DefenseMeter implements DefenseCounter {
  private readonly counts = new Map<string, Counts>();
  private readonly silenced: ReadonlySet<string>;
  private readonly judgedAsTriggered: ReadonlySet<string>;

  /**
   * `silenced`: test-only (harness fault `dead_defense`): listed as armed and
   * evaluated, but it never acts — the F1 dead defense of docs/harness-rules.md#dead-defense, so a
   * test can show the report and verify-defense catch it.
   */
  constructor(
    private readonly emitter: SessionEmitter,
    armed: ReadonlyArray<{ name: string; at?: DefenseHookPoint; judges?: DefenseScope }>,
    silenced: readonly string[] = [],
    /** Test-only (harness/faults.ts): the F3 bug, the counter in the predicate. */
    judgedAsTriggered: readonly string[] = [],
  ) {
    for (const d of armed) this.counts.set(d.name, { evaluated: 0, triggered: 0, at: d.at, judges: d.judges });
    this.silenced = new Set(silenced);
    this.judgedAsTriggered = new Set(judgedAsTriggered);
  }

  get armed(): string[] {
    return [...this.counts.keys()];
  }

  isArmed(name: string): boolean {
    return this.counts.has(name);
  }

  /** Armed and allowed to act: what a stage asks before it applies a defense's rule. */
  acts(name: string): boolean {
    return this.counts.has(name) && !this.silenced.has(name);
  }

  /** One evaluation. False for a defense that is not armed (its rule must not run). */
  evaluated(name: string): boolean {
    const c = this.counts.get(name);
    if (!c) return false;
    c.evaluated++;
    return true;
  }

  /** The defense acted: call this exactly where its action is carried out. */
  triggered(name: string, turn: number, action: DefenseAction, tool: string | null = null): void {
    const c = this.counts.get(name);
    if (!c) return;
    c.triggered++;
    this.emitter.emit('defense_trigger', { turn, defense: name, action, tool });
  }

  /** One evaluation of a wired rule, and its trigger when `fired`. Returns whether it fired (false when not armed or silenced). */
  check(name: string, turn: number, fired: boolean, action: DefenseAction, tool: string | null = null): boolean {
    if (!this.evaluated(name)) return false;
    if (!fired || this.silenced.has(name)) return false;
    this.triggered(name, turn, action, tool);
    return true;
  }

  emitStats(): void {
    for (const [defense, c] of this.counts) {
      const triggered = this.judgedAsTriggered.has(defense) ? c.evaluated : c.triggered;
      const scope = c.judges;
      // Optional keys assigned, not spread: the most frequent event of a session (one per armed defense)
      // then costs one object instead of four, with the same keys in the same order.
      const fields: SessionFields<'defense_stats'> = { defense, evaluated: c.evaluated, triggered };
      if (c.at) fields.evaluated_at = c.at;
      if (scope?.tools) fields.judged_tools = scope.tools.filter((t) => TOOL_NAME.test(t));
      if (scope?.successesOnly) fields.judged_outcome = 'success';
      this.emitter.emit('defense_stats', fields);
    }
  }
}
