/**
 * The one channel through which defenses talk to the model in the user's
 * role (docs/harness-rules.md#phantom-reminders). Such text is indistinguishable from the user on the
 * wire, so every reminder is marked with the defense that sent it, an exact
 * repeat is never sent twice, and a reminder the model keeps ignoring is
 * capped: past the cap the reminder_cap defense fires once and forces a
 * wrap-up (one last reminder to answer now; a reply that still calls tools
 * ends the loop) instead of nagging the model into replaying a "user" who
 * never spoke.
 *
 * The cap belongs to a stuck loop: the same guard offering the same reminder
 * again, turn after turn, because the model goes on doing what triggered it.
 * It is counted per guard and reminder, never across them: hints from
 * unrelated defenses, or one guard's notices about different results (the
 * injection guard on each of four files read), are separate facts, and
 * adding them up would force a legitimate session to wrap up before its work
 * is done.
 *
 * With reminder_cap switched off every hint is sent, repeats included, with
 * no cap and no wrap-up: what the harness did before the rule existed.
 */
import type { TextBlock } from '../../providers/types.js';
import type { DefenseMeter } from './meter.js';

export const REMINDER_CAP = 'reminder_cap';
/** Reminders a session may receive before the wrap-up (MAX_STUCK_REMINDERS in the seed). */
export const DEFAULT_MAX_REMINDERS = 3;

export type Offer = 'sent' | 'repeat' | 'capped';

/** How a reminder reads on the wire: who sent it, and that it is not the user. */
export function reminderText(source: string, text: string): string {
  return `[harness reminder from defense "${source}", not from the user]\n${text}`;
}

export class Reminders {
  private readonly sent = new Set<string>();
  private pending: TextBlock[] = [];
  /** Offers per (guard, reminder) in distinct turns: how long one reminder has gone unheeded. */
  private readonly offers = new Map<string, number>();
  private wrapUp = false;
  /** (source, text) offered in the turn being judged: a hint offered twice in one turn is one offer. */
  private offeredInTurn = new Set<string>();
  private turn = -1;

  constructor(
    private readonly meter: DefenseMeter,
    private readonly max: number = DEFAULT_MAX_REMINDERS,
  ) {}

  /** A wrap-up was forced: the next reply must not call tools. */
  get wrappingUp(): boolean {
    return this.wrapUp;
  }

  /** A defense wants to tell the model something; `sent` when it will be in the next user message. */
  offer(source: string, text: string, turn: number): Offer {
    if (!this.meter.acts(REMINDER_CAP)) {
      this.queue(source, text);
      return 'sent';
    }
    if (this.wrapUp) return 'capped';
    const key = `${source}\u0000${text}`;
    if (turn !== this.turn) {
      this.turn = turn;
      this.offeredInTurn = new Set();
    }
    if (this.offeredInTurn.has(key)) return 'repeat';
    this.offeredInTurn.add(key);
    const offers = (this.offers.get(key) ?? 0) + 1;
    this.offers.set(key, offers);
    if (offers > this.max) {
      this.wrapUp = true;
      this.meter.triggered(REMINDER_CAP, turn, 'stop');
      this.queue(
        REMINDER_CAP,
        `The harness has reminded you ${this.max} times of the same problem (defense "${source}") and it goes on. Stop calling tools now: give your final answer with what you have, including what is still unresolved. A reply that calls a tool will end the session.`,
      );
      return 'capped';
    }
    if (this.sent.has(key)) return 'repeat';
    this.sent.add(key);
    this.queue(source, text);
    return 'sent';
  }

  /** The cap is judged once per turn, whether or not a defense offered anything (an evaluation, docs/harness-rules.md#judged-vs-triggered). */
  judgeTurn(): void {
    this.meter.evaluated(REMINDER_CAP);
  }

  /** The reminders for the user message that follows this turn's results, in the order they were offered. */
  take(): TextBlock[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  private queue(source: string, text: string): void {
    this.pending.push({ type: 'text', text: reminderText(source, text) });
  }
}
