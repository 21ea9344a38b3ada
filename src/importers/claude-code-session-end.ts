/** The end of a Claude Code session (the end of its file): session_start and session_end with what the transcript knows, and denials left undecided. */
import { between, count, isObject } from './common.js';
import { sessionScope, type Session } from './claude-code-session.js';
import type { ImportContext } from './types.js';

/** Books a session whose lines are all read (its last model call already booked). */
export function endSession(s: Session, ctx: ImportContext): void {
  const scope = sessionScope(s);
  // A denial announced with no tool result after it: the announcement is all there is.
  for (const [callId, d] of s.denied) {
    ctx.emit({ ...scope, event: 'permission_decision', ts: d.ts, turn: d.turn, tool: d.tool, tool_use_id: callId, decision: 'deny', source: 'default', needed_prompt: true, rule_id: null }, d.ref);
    s.deniedCount++;
  }
  ctx.emit({ ...scope, event: 'session_start', ts: s.first, scenario: null, repeat: null, defenses_armed: null, tools: s.tools, deferred_tools: null, permission_mode: s.permissionMode, headless: null }, s.ref);
  const t = s.tokensKnown && s.tokens ? s.tokens : null;
  const r = s.result;
  const ru = r && isObject(r.usage) ? r.usage : null;
  const stop = r?.subtype === 'error_max_turns' ? 'max_turns' : null;
  ctx.emit(
    {
      ...scope,
      event: 'session_end',
      ts: s.last,
      // A run's result says whether it errored; Claude Code has no pass/fail of its own.
      outcome: r?.is_error === true ? 'error' : null,
      stop,
      turns: s.turns,
      input_tokens: ru ? count(ru.input_tokens) : (t?.input ?? null),
      output_tokens: ru ? count(ru.output_tokens) : (t?.output ?? null),
      cache_read_tokens: ru ? count(ru.cache_read_input_tokens) : (t?.read ?? null),
      cache_write_tokens: ru ? count(ru.cache_creation_input_tokens) : (t?.write ?? null),
      duration_ms: r && typeof r.duration_ms === 'number' && r.duration_ms >= 0 ? r.duration_ms : between(s.first, s.last),
    },
    s.ref,
  );
  // The result line lists the run's denials: one not read from its tool result is a denial this import missed.
  const listed = r && Array.isArray(r.permission_denials) ? r.permission_denials.length : 0;
  const missed = listed - s.deniedCount;
  for (let i = 0; i < missed; i++) ctx.warn('a denial in the result line\'s permission_denials with no tool result read as a denial');
}
