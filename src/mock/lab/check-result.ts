/** What one check found in one session: how many things it looked at, and each violation (deduplicated by key). */
import type { ConformanceCheck } from '../../events/labels.js';

export interface Violation {
  check: ConformanceCheck;
  turn: number;
  toolUseId: string | null;
  bytes: number | null;
  detail: string;
}

export class CheckTally {
  evaluated = 0;
  readonly violations: Violation[] = [];
  private readonly keys = new Set<string>();

  constructor(readonly check: ConformanceCheck) {}

  /** Count one opportunity (once per key, so a history resent every turn is counted once). */
  look(key: string): boolean {
    if (this.keys.has(`look:${key}`)) return false;
    this.keys.add(`look:${key}`);
    this.evaluated++;
    return true;
  }

  flag(key: string, violation: Omit<Violation, 'check' | 'toolUseId' | 'bytes'> & Partial<Pick<Violation, 'toolUseId' | 'bytes'>>): void {
    if (this.keys.has(`flag:${key}`)) return;
    this.keys.add(`flag:${key}`);
    this.violations.push({ check: this.check, toolUseId: null, bytes: null, ...violation });
  }
}
