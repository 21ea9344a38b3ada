/**
 * Requests that are not the scripted conversation. Real harnesses send them
 * beside it: a title or summary call (opencode, Claude Code), a `HEAD` probe
 * of the base URL, `count_tokens`, `/v1/models`. Answered plausibly and
 * recorded apart, they never take a turn of the script (opencode's title call
 * used to consume the first one).
 *
 * A conversation request is "side" when it starts a conversation (no model
 * turn in it yet) that cannot be the scripted one: it carries no tools while
 * the script calls tools (a model cannot call a tool it was not given), it
 * does not contain the task's prompt (when the lab knows it), or the scripted
 * conversation has already started with another first message. A request that
 * continues a conversation (model turns in it) is always the conversation:
 * dropping tools mid-session is a harness fault, not a side call.
 */
import type { Message } from '../providers/types.js';
import type { DecodedRequest } from './decoded-request.js';
import type { MockReply } from './engine.js';
import type { IssuedLedger } from './issued-ledger.js';
import type { ModelScript } from './script.js';

export type SideReason =
  /** A fresh conversation without tools while the script calls tools (titles, summaries). */
  | 'no_tools'
  /** A fresh conversation that is not the task's (another prompt or first message). */
  | 'other_conversation'
  /** A script turn with `match` answered it. */
  | 'matched'
  /**
   * A request that carries the conversation (its model turns) but is not its
   * next step: another system prompt, and other tools or no answer to the
   * last issued calls (a memory extraction, a summary over the history).
   */
  | 'side_conversation'
  /** The conversation ended (the last turn had no calls) and the harness asked for more. */
  | 'after_end'
  | 'count_tokens'
  | 'models'
  /** `HEAD` (or another non-API method) on any path. */
  | 'probe'
  /** A route no API has; answered 404. */
  | 'unknown_route';

function firstUserText(messages: readonly Message[]): string {
  const first = messages.find((m) => m.role === 'user');
  return first ? first.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n') : '';
}

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();
/** A system prompt with its dynamic bits (times, ids, counters) blanked: a harness that stamps the time is still the same conversation. */
const signature = (text: string | undefined) => normalize(text ?? '').replace(/[0-9a-f]{8,}|\d+/gi, '#');

export function scriptCallsTools(script: ModelScript): boolean {
  const replies = script.flatMap((t) => ('rule' in t ? t.rule.map((b) => b.then) : [t]));
  return replies.some((r) => (r.tool_use ?? []).length > 0);
}

/** Decides, per session, which conversation requests are the scripted conversation. */
export class SideClassifier {
  private mainFirst: string | null = null;
  private main: { system: string; tools: string } | null = null;
  private readonly callsTools: boolean;

  constructor(
    script: ModelScript,
    /** The task's prompt, when the caller knows what the harness was asked. */
    private readonly prompt: string | null = null,
    /** What the mock issued: tells a request that continues the conversation from one that only carries it. */
    private readonly ledger: IssuedLedger | null = null,
  ) {
    this.callsTools = scriptCallsTools(script);
  }

  /** The last user message answers a call of the latest issued turn. */
  private answersLast(request: DecodedRequest): boolean {
    const ids = this.ledger?.lastIssued()?.ids ?? [];
    const last = request.messages[request.messages.length - 1];
    return last?.role === 'user' && last.content.some((b) => b.type === 'tool_result' && ids.includes(b.tool_use_id));
  }

  private remember(request: DecodedRequest): null {
    this.main ??= { system: signature(request.system), tools: request.tools.map((t) => t.name).sort().join(',') };
    return null;
  }

  /** The conversation has ended: the latest issued turn had no calls. */
  ended(): boolean {
    return this.ledger?.lastIssued()?.final === true;
  }

  classify(request: DecodedRequest): SideReason | null {
    if (request.messages.some((m) => m.role === 'assistant')) {
      if (this.ledger && this.main !== null && signature(request.system) !== this.main.system) {
        const tools = request.tools.map((t) => t.name).sort().join(',');
        if (tools !== this.main.tools || !this.answersLast(request)) return 'side_conversation';
      }
      return this.remember(request);
    }
    if (this.callsTools && request.tools.length === 0) return 'no_tools';
    const first = normalize(firstUserText(request.messages));
    if (this.prompt !== null && !first.includes(normalize(this.prompt))) return 'other_conversation';
    if (this.mainFirst !== null && first !== this.mainFirst) return 'other_conversation';
    this.mainFirst = first;
    return this.remember(request);
  }
}

/** What a side call gets: a short text answer, the kind a title or summary call expects. */
export function sideReply(turn: number): MockReply {
  return {
    turn,
    content: [{ type: 'text', text: 'Scripted lab session' }],
    stopReason: 'end_turn',
    usage: { input_tokens: 10, output_tokens: 4, cache_read_tokens: 0, cache_write_tokens: 0 },
    cutToolInput: false,
    fault: null,
  };
}
