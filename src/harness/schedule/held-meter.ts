/**
 * The defense counts of a streaming attempt, held like its events
 * (held-sink.ts): an early call that is dropped with its attempt was never
 * part of the session, so its evaluations and triggers must not count either;
 * streaming on and off then report the same `defense_stats`. Released: the
 * held counts go to the session's meter in order and later ones pass through.
 */
import type { DefenseAction } from '../../events/labels.js';
import type { DefenseCounter } from '../defenses/meter.js';

export class HeldMeter implements DefenseCounter {
  private held: Array<(target: DefenseCounter) => void> | null = [];
  private dropped = false;

  constructor(private readonly target: DefenseCounter) {}

  isArmed(name: string): boolean {
    return this.target.isArmed(name);
  }

  acts(name: string): boolean {
    return this.target.acts(name);
  }

  evaluated(name: string): boolean {
    if (!this.target.isArmed(name)) return false;
    this.pass((t) => t.evaluated(name));
    return true;
  }

  triggered(name: string, turn: number, action: DefenseAction, tool: string | null = null): void {
    this.pass((t) => t.triggered(name, turn, action, tool));
  }

  check(name: string, turn: number, fired: boolean, action: DefenseAction, tool: string | null = null): boolean {
    if (!this.evaluated(name)) return false;
    if (!fired || !this.target.acts(name)) return false;
    this.triggered(name, turn, action, tool);
    return true;
  }

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const op of held) op(this.target);
  }

  drop(): void {
    this.dropped = true;
    this.held = [];
  }

  private pass(op: (target: DefenseCounter) => void): void {
    if (this.dropped) return;
    if (this.held) this.held.push(op);
    else op(this.target);
  }
}
