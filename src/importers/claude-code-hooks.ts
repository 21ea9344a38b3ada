/** Claude Code's hook attachments (PreToolUse, PostToolUse, PostToolUseFailure results) as hook events. */
import { str, isObject } from './common.js';
import { sessionScope, type Json, type Session } from './claude-code-session.js';
import type { ImportContext, RecordRef } from './types.js';

const HOOKS: Readonly<Record<string, 'pre_tool_use' | 'post_tool_use' | 'post_tool_use_failure'>> = { PreToolUse: 'pre_tool_use', PostToolUse: 'post_tool_use', PostToolUseFailure: 'post_tool_use_failure' };
const HOOK_EFFECTS: Readonly<Record<string, 'none' | 'blocked' | 'failed'>> = {
  hook_success: 'none',
  hook_additional_context: 'none',
  hook_blocking_error: 'blocked',
  hook_non_blocking_error: 'failed',
  hook_cancelled: 'failed',
};

/** An attachment line: a hook's result for a tool call becomes a hook event; any other attachment is skipped. */
export function readHookAttachment(s: Session, line: Json, ts: number | null, ref: RecordRef, ctx: ImportContext, skip: (ref: RecordRef, reason: string) => void): void {
  const a = isObject(line.attachment) ? line.attachment : {};
  const type = String(a.type ?? 'no type');
  const effect = HOOK_EFFECTS[type];
  const hook = HOOKS[String(a.hookEvent)];
  if (!effect) return skip(ref, `attachment/${type}`);
  if (!hook) return skip(ref, `attachment/${type} (${String(a.hookEvent ?? 'no hookEvent')} hook, not a tool hook)`);
  const callId = str(a.toolUseID);
  const call = callId === null ? undefined : (s.pending.get(callId) ?? s.done.get(callId));
  if (callId === null || !call) return ctx.quarantine(ref, `${type}: hook result for a tool_use not in this transcript`);
  ctx.emit({ ...sessionScope(s), event: 'hook', ts, turn: call.turn, tool: call.tool, tool_use_id: callId, hook, effect, duration_ms: typeof a.durationMs === 'number' && a.durationMs >= 0 ? a.durationMs : null }, ref);
}
