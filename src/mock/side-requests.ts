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
import type { ModelScript } from './script.js';

export type SideReason =
  /** A fresh conversation without tools while the script calls tools (titles, summaries). */
  | 'no_tools'
  /** A fresh conversation that is not the task's (another prompt or first message). */
  | 'other_conversation'
  /** A script turn with `match` answered it. */
  | 'matched'
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

export function scriptCallsTools(script: ModelScript): boolean {
  const replies = script.flatMap((t) => ('rule' in t ? t.rule.map((b) => b.then) : [t]));
  return replies.some((r) => (r.tool_use ?? []).length > 0);
}

/** Decides, per session, which conversation requests are the scripted conversation. */
export class SideClassifier {
  private mainFirst: string | null = null;
  private readonly callsTools: boolean;

  constructor(
    script: ModelScript,
    /** The task's prompt, when the caller knows what the harness was asked. */
    private readonly prompt: string | null = null,
  ) {
    this.callsTools = scriptCallsTools(script);
  }

  classify(request: DecodedRequest): SideReason | null {
    if (request.messages.some((m) => m.role === 'assistant')) return null;
    if (this.callsTools && request.tools.length === 0) return 'no_tools';
    const first = normalize(firstUserText(request.messages));
    if (this.prompt !== null && !first.includes(normalize(this.prompt))) return 'other_conversation';
    if (this.mainFirst !== null && first !== this.mainFirst) return 'other_conversation';
    this.mainFirst = first;
    return null;
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
