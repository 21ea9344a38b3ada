/**
 * Counts evaluations and triggers per armed defense (seed §13.3: count
 * triggers, not judgements) and emits `defense_trigger` at the moment a
 * defense fires and `defense_stats` once at session end, so the report can
 * tell a dead defense (never evaluated) from an unreached one.
 */
import type { DefenseAction, DefenseName } from '../../events/labels.js';
import type { SessionEmitter } from '../../events/emitter.js';

export class DefenseMeter {
  private readonly counts = new Map<DefenseName, { evaluated: number; triggered: number }>();

  constructor(
    private readonly emitter: SessionEmitter,
    readonly armed: readonly DefenseName[],
  ) {
    for (const name of armed) this.counts.set(name, { evaluated: 0, triggered: 0 });
  }

  isArmed(name: DefenseName): boolean {
    return this.counts.has(name);
  }

  /** Record one evaluation; when `fired`, also the trigger and its event. Returns `fired` for an armed defense, false otherwise. */
  check(name: DefenseName, turn: number, fired: boolean, action: DefenseAction, tool: string | null = null): boolean {
    const c = this.counts.get(name);
    if (!c) return false;
    c.evaluated++;
    if (!fired) return false;
    c.triggered++;
    this.emitter.emit('defense_trigger', { turn, defense: name, action, tool });
    return true;
  }

  emitStats(): void {
    for (const [defense, c] of this.counts) this.emitter.emit('defense_stats', { defense, ...c });
  }
}
