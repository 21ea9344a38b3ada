/**
 * A Claude Code user line's tool_result blocks: each pairs with its pending
 * tool_use and becomes tool_success or tool_failure, with the permission
 * decision the result records (claude-code-permissions.ts) or its denial text
 * (claude-code-denial-text.ts).
 */
import { between, isObject, resultBytes, str } from './common.js';
import { nonExecutionKind, resultMeta } from './claude-code-permissions.js';
import { permissionDenial } from './claude-code-denial-text.js';
import { sessionScope, type Call, type Json, type Session } from './claude-code-session.js';
import type { ImportContext, RecordRef } from './types.js';

/** A user line: the tool results it carries (with the permission decisions they record), or a prompt, which is skipped. */
export function readToolResults(s: Session, line: Json, ts: number | null, ref: RecordRef, ctx: ImportContext, skip: (ref: RecordRef, reason: string) => void): void {
  const message = isObject(line.message) ? line.message : null;
  const blocks = message && Array.isArray(message.content) ? message.content.filter(isObject) : [];
  const results = blocks.filter((b) => b.type === 'tool_result');
  if (results.length === 0) return skip(ref, 'user/prompt (its text is not logged)');
  // A line is used whole or quarantined whole: every result must pair before any is booked.
  const seen = new Set<string>();
  for (const block of results) {
    const callId = str(block.tool_use_id);
    if (callId === null) return ctx.quarantine(ref, 'tool_result block without a tool_use_id');
    if (!s.pending.has(callId) || seen.has(callId)) {
      return ctx.quarantine(ref, s.done.has(callId) || seen.has(callId) ? `second tool_result for tool_use ${callId.slice(0, 64)}` : `tool_result for tool_use ${callId.slice(0, 64)}, which is not in this transcript`);
    }
    seen.add(callId);
  }
  for (const block of results) {
    const callId = str(block.tool_use_id) as string;
    const call = s.pending.get(callId) as Call;
    s.pending.delete(callId);
    s.done.set(callId, { tool: call.tool, turn: call.turn });
    const common = { ...sessionScope(s), ts, turn: call.turn, tool: call.tool, tool_use_id: callId, duration_ms: between(call.ts, ts), duration_source: 'timestamps' as const };
    // Claude Code 2.1 records the permission check and why a call did not run (claude-code-permissions.ts); older builds only the denial text.
    const meta = resultMeta(line, callId, results.length);
    const textDenial = block.is_error === true ? permissionDenial(block.content, results.length === 1 ? (line.toolUseResult ?? line.tool_use_result) : undefined) : null;
    const decision = meta.decision ?? (textDenial ? { decision: 'deny' as const, source: textDenial, needed_prompt: true } : null);
    const { duration_ms: _d, duration_source: _s, ...decided } = common;
    // A system permission_denied line (stream-json) announced this denial: the decision is booked on that line, as the result records it.
    const announced = s.denied.get(callId);
    s.denied.delete(callId);
    if (announced) ctx.emit({ ...decided, ts: announced.ts, event: 'permission_decision', ...(decision ?? { decision: 'deny', source: 'default', needed_prompt: true }), rule_id: null }, announced.ref);
    else if (decision) ctx.emit({ ...decided, event: 'permission_decision', ...decision, rule_id: null }, ref);
    const notRun = block.is_error === true ? (nonExecutionKind(meta.kind, decision) ?? (textDenial || decision?.decision === 'deny' ? 'permission_denied' : null)) : null;
    if (notRun === 'permission_denied' || notRun === 'hook_blocked') s.deniedCount++;
    // Denied before it ran: no execution time (an interrupted call did run for a while).
    if (notRun) ctx.emit({ ...common, duration_ms: notRun === 'aborted' ? common.duration_ms : null, event: 'tool_failure', failure_kind: notRun, error_code: null }, ref);
    else if (block.is_error === true) ctx.emit({ ...common, event: 'tool_failure', failure_kind: 'tool_error', error_code: null }, ref);
    else {
      const bytes = resultBytes(block.content);
      ctx.emit({ ...common, event: 'tool_success', output_bytes: bytes, raw_bytes: null, empty: bytes === null ? null : bytes === 0, truncated: null, spilled: null }, ref);
    }
  }
}
