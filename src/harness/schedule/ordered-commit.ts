/**
 * Context modifiers in call order (docs/harness-rules.md#context-modifier-order): calls of a concurrent batch
 * finish in any order, but the changes they make to session context are
 * applied strictly by call index, each as soon as every earlier call has
 * settled. Same input -> same context, whatever the timing.
 */
import type { ContextModifier } from './types.js';

export class OrderedCommit {
  private readonly settled = new Map<number, ContextModifier | undefined>();
  private cursor = 0;

  constructor(private readonly onError: (error: unknown, index: number) => void = () => undefined) {}

  /** Call `index` settled (with or without a modifier): apply whatever prefix is now complete. */
  settle(index: number, modifier: ContextModifier | undefined): void {
    this.settled.set(index, modifier);
    while (this.settled.has(this.cursor)) {
      const next = this.settled.get(this.cursor);
      this.settled.delete(this.cursor);
      const at = this.cursor++;
      try {
        next?.();
      } catch (error) {
        // The call's result is already settled; a broken modifier must not take the turn down.
        this.onError(error, at);
      }
    }
  }
}
