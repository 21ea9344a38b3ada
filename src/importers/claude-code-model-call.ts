/** The model call of one Claude Code assistant message: model_request and model_response, with its tokens added to the session's. */
import { classifyAnthropicStop } from '../providers/stop-class.js';
import { count, REQUEST_NOT_RECORDED } from './common.js';
import { sessionScope, type Session } from './claude-code-session.js';
import type { ImportContext } from './types.js';

/** Writes the model call of the message just finished (its lines are consecutive). */
export function bookModelCall(s: Session, ctx: ImportContext): void {
  const m = s.message;
  if (!m) return;
  s.message = null;
  const u = m.usage;
  const tokens = {
    input_tokens: count(u?.input_tokens),
    // stream-json writes each message as its stream starts: output_tokens there is not the final count.
    output_tokens: s.stream ? null : count(u?.output_tokens),
    cache_read_tokens: count(u?.cache_read_input_tokens),
    cache_write_tokens: count(u?.cache_creation_input_tokens),
  };
  if (s.stream) s.tokensKnown = false; // the result line has the totals
  else if (s.tokens && tokens.input_tokens !== null && tokens.output_tokens !== null) {
    s.tokens.input += tokens.input_tokens;
    s.tokens.output += tokens.output_tokens;
    s.tokens.read += tokens.cache_read_tokens ?? 0;
    s.tokens.write += tokens.cache_write_tokens ?? 0;
  } else if (!s.stream) s.tokensKnown = false;
  const scope = { ...sessionScope(s), turn: m.turn };
  ctx.emit({ ...scope, event: 'model_request', ts: null, provider: null, model: m.model, ...REQUEST_NOT_RECORDED }, m.ref);
  ctx.emit(
    {
      ...scope,
      event: 'model_response',
      ts: m.ts,
      duration_ms: null,
      ttft_ms: null,
      stop_reason: m.stopReason?.slice(0, 64) ?? null,
      // Streamed lines often carry no stop_reason at all: then it was not recorded (NULL), which is not the `null` class.
      stop_class: m.stopReason === null ? null : classifyAnthropicStop(m.stopReason),
      tool_use_count: m.toolUses,
      ...tokens,
    },
    m.ref,
  );
}
