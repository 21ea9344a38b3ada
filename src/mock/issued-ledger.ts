/**
 * What the mock issued in one conversation, turn by turn: the tool ids and
 * the text of each reply that reached the harness whole. The turn a request
 * asks for is read against it: the last issued turn its history holds, plus
 * one. Counting assistant messages instead is wrong for real harnesses: one
 * that opens every conversation with its own canned assistant turn would
 * skip the script's first turn, and one that keeps a broken attempt's partial
 * message (an SSE error mid-reply) would skip the turn it must retry.
 */
import type { Message } from '../providers/types.js';
import type { MockReply } from './engine.js';

const norm = (text: string) => text.replace(/\s+/g, ' ').trim();

export class IssuedLedger {
  private readonly ids = new Map<string, number>();
  private readonly texts = new Map<string, number>();
  /** Tool ids of attempts whose stream broke: the harness never had them whole. */
  readonly broken = new Set<string>();
  private last: { turn: number; ids: string[]; final: boolean } | null = null;

  /** A reply that reached the harness whole. */
  issue(reply: MockReply): void {
    const ids: string[] = [];
    for (const b of reply.content) {
      if (b.type === 'tool_use') {
        this.ids.set(b.id, reply.turn);
        ids.push(b.id);
      } else if (norm(b.text) !== '') this.texts.set(norm(b.text), reply.turn);
    }
    if (!this.last || reply.turn >= this.last.turn) this.last = { turn: reply.turn, ids, final: ids.length === 0 };
  }

  /** A reply whose stream broke midway (its ids are that attempt's own). */
  breakOff(reply: MockReply): void {
    for (const b of reply.content) if (b.type === 'tool_use') this.broken.add(b.id);
  }

  /** The latest turn issued whole: its number, its tool ids, and whether it ended the conversation (no calls). */
  lastIssued(): { turn: number; ids: string[]; final: boolean } | null {
    return this.last;
  }

  /** The issued turn a message is, or 0 when the mock never issued it whole. */
  turnOf(message: Message): number {
    if (message.role !== 'assistant') return 0;
    let turn = 0;
    for (const b of message.content) {
      const t = b.type === 'tool_use' ? this.ids.get(b.id) : b.type === 'text' ? this.texts.get(norm(b.text)) : undefined;
      if (t !== undefined && t > turn) turn = t;
    }
    return turn;
  }

  /**
   * The model turns a conversation holds: the latest issued turn in it. A
   * history that holds assistant messages but none the mock issued, once the
   * mock has issued something, is a harness that rewrote ids: count its
   * assistant messages (without the broken attempts') as before.
   */
  turnsTaken(messages: readonly Message[]): number {
    let turn = 0;
    for (const m of messages) turn = Math.max(turn, this.turnOf(m));
    if (turn > 0 || this.last === null) return turn;
    return messages.filter((m) => m.role === 'assistant' && !m.content.some((b) => b.type === 'tool_use' && this.broken.has(b.id))).length;
  }
}
