/**
 * The reading of one Claude Code transcript file (see claude-code.ts for the
 * format): each line goes to its session (claude-code-session.ts) and to the
 * reader of its type: assistant lines and system lines here, tool results,
 * hook attachments, the model call and the session end in their own files.
 * State is kept per file, so a directory of any size is read in the memory of
 * its largest session.
 */
import { basename } from 'node:path';
import { kindForStatus } from '../providers/classify-error.js';
import { importedTool, isObject, isoMs, str } from './common.js';
import type { ImportContext, RecordRef } from './types.js';
import { isStreamLine, MODES, newSession, sessionScope, type Json, type Message, type Session } from './claude-code-session.js';
import { bookModelCall } from './claude-code-model-call.js';
import { readToolResults } from './claude-code-tool-results.js';
import { readHookAttachment } from './claude-code-hooks.js';
import { endSession } from './claude-code-session-end.js';

// Still part of this file's API: tests import it from here.
export { permissionDenial } from './claude-code-denial-text.js';

export class Transcript {
  private readonly sessions = new Map<string, Session>();
  /** The line each session was opened by: its ids and time start the session, so it is used even where it carries nothing else. */
  private readonly openers = new WeakSet<RecordRef>();

  constructor(
    private readonly path: string,
    private readonly ctx: ImportContext,
  ) {}

  line(value: unknown, ref: RecordRef): void {
    if (!isObject(value) || typeof value.type !== 'string') return this.ctx.quarantine(ref, 'not a Claude Code transcript line (no "type")');
    const type = value.type;
    ref.kind = `${type} line${typeof value.subtype === 'string' ? ` (${value.subtype.slice(0, 40)})` : ''}`;
    if (type === 'result' && isStreamLine(value)) {
      const session = this.session(value, ref);
      this.endMessage(session);
      session.result = value;
      return;
    }
    if (type === 'assistant' || type === 'user' || type === 'system' || type === 'attachment' || type === 'permission-mode') {
      const session = this.session(value, ref);
      const ts = isoMs(value.timestamp);
      if (ts !== null) {
        session.first = session.first === null ? ts : Math.min(session.first, ts);
        session.last = session.last === null ? ts : Math.max(session.last, ts);
      }
      if (type !== 'assistant') this.endMessage(session);
      if (type === 'assistant') return this.assistant(session, value, ts, ref);
      if (type === 'user') return readToolResults(session, value, ts, ref, this.ctx, (r, why) => this.skip(r, why));
      if (type === 'system') return this.system(session, value, ts, ref);
      if (type === 'attachment') return readHookAttachment(session, value, ts, ref, this.ctx, (r, why) => this.skip(r, why));
      const mode = MODES[String(value.permissionMode)];
      if (mode) session.permissionMode ??= mode;
      return;
    }
    this.ctx.skip(ref, type === 'progress' && isObject(value.data) ? `progress/${String(value.data.type)}` : type);
  }

  private session(line: Json, ref: RecordRef): Session {
    const main = str(line.sessionId) ?? str(line.session_id) ?? basename(this.path).replace(/\.jsonl$/, '');
    // stream-json marks a subagent's messages with the Task call that started it (parent_tool_use_id).
    const parentCall = str(line.parent_tool_use_id);
    const sidechain = line.isSidechain === true || parentCall !== null;
    const id = sidechain ? `${main}:agent-${str(line.agentId) ?? parentCall ?? 'sidechain'}` : main;
    let session = this.sessions.get(id);
    if (!session) {
      session = newSession(id, main, ref, isStreamLine(line));
      this.sessions.set(id, session);
      this.openers.add(ref);
    }
    if (line.type === 'user') {
      const mode = MODES[String(line.permissionMode)];
      if (mode) session.permissionMode ??= mode;
    }
    return session;
  }

  /** A line with nothing for an event is skipped, unless it opened its session (then session_start and session_end are booked on it). */
  private skip(ref: RecordRef, reason: string): void {
    if (this.openers.has(ref)) ref.kind = `${ref.kind ?? "line"} that opens the session`;
    else this.ctx.skip(ref, reason);
  }

  private assistant(s: Session, line: Json, ts: number | null, ref: RecordRef): void {
    const message = isObject(line.message) ? line.message : null;
    if (!message) return this.ctx.quarantine(ref, 'assistant line without a message');
    if (line.isApiErrorMessage === true) {
      // A synthetic message standing for a request that failed for good: an error, not a response.
      this.endMessage(s);
      const status = typeof line.apiErrorStatus === 'number' ? line.apiErrorStatus : null;
      this.ctx.emit({ ...sessionScope(s), event: 'model_error', ts, turn: s.turns + 1, error_kind: status === null ? 'unknown' : kindForStatus(status), status, attempt: null, will_retry: false, retry_after_ms: null }, ref);
      return;
    }
    const id = str(message.id);
    if (message.model === '<synthetic>' || id === null) {
      this.endMessage(s);
      return this.skip(ref, 'assistant/synthetic message (written by Claude Code, not the model)');
    }
    if (s.message?.id !== id && s.responses.has(id)) {
      this.endMessage(s);
      return this.skip(ref, 'assistant/repeated message');
    }
    // A line is used whole or quarantined whole: its tool_use blocks are checked before anything of it is booked.
    const uses: { id: string; name: string }[] = [];
    for (const block of Array.isArray(message.content) ? message.content : []) {
      if (!isObject(block) || block.type !== 'tool_use') continue;
      const callId = str(block.id);
      const name = str(block.name);
      if (callId === null || name === null) return this.ctx.quarantine(ref, 'tool_use block without an id or a name');
      if (s.pending.has(callId) || s.done.has(callId) || uses.some((u) => u.id === callId)) return this.ctx.quarantine(ref, `tool_use id ${callId.slice(0, 64)} used twice`);
      uses.push({ id: callId, name });
    }
    if (s.message?.id !== id) {
      this.endMessage(s);
      s.responses.add(id);
      s.message = { id, turn: ++s.turns, model: str(message.model), ts, stopReason: null, usage: null, toolUses: 0, ref };
    }
    const m = s.message as Message;
    if (typeof message.stop_reason === 'string') m.stopReason = message.stop_reason;
    if (isObject(message.usage)) m.usage = message.usage;
    for (const { id: callId, name } of uses) {
      m.toolUses++;
      const { tool, requested_tool } = importedTool(name);
      s.pending.set(callId, { tool, turn: m.turn, ts });
      this.ctx.emit({ ...sessionScope(s), event: 'tool_call', ts, turn: m.turn, tool, tool_use_id: callId, requested_tool, batch: null, concurrency_safe: null, source: name.startsWith('mcp__') ? 'mcp' : null }, ref);
    }
  }

  private system(s: Session, line: Json, ts: number | null, ref: RecordRef): void {
    if (line.subtype === 'permission_denied') return this.permissionDenied(s, line, ts, ref);
    if (line.subtype === 'init' && isStreamLine(line)) {
      // stream-json's first line: the session's permission mode and the tools offered.
      const mode = MODES[String(line.permissionMode)];
      if (mode) s.permissionMode ??= mode;
      if (Array.isArray(line.tools)) s.tools ??= line.tools.filter((t): t is string => typeof t === 'string').map((t) => importedTool(t).tool);
      return;
    }
    if (line.subtype !== 'api_error') return this.skip(ref, `system/${String(line.subtype ?? 'no subtype')}`);
    const error = isObject(line.error) ? line.error : {};
    const status = typeof error.status === 'number' ? error.status : null;
    this.ctx.emit(
      {
        ...sessionScope(s),
        event: 'model_error',
        ts,
        turn: s.turns + 1,
        error_kind: status === null ? 'unknown' : kindForStatus(status),
        status,
        attempt: typeof line.retryAttempt === 'number' && line.retryAttempt >= 1 ? Math.floor(line.retryAttempt) : null,
        // Claude Code writes this line for a request it is about to retry (retryInMs is its own backoff, not a server retry-after).
        will_retry: typeof line.retryInMs === 'number' ? true : null,
        retry_after_ms: null,
      },
      ref,
    );
  }

  /** A `system` `permission_denied` line: the decision, for the pending call it names (by id, else the oldest of that tool). */
  private permissionDenied(s: Session, line: Json, ts: number | null, ref: RecordRef): void {
    const byId = str(line.tool_use_id);
    const name = str(line.tool_name);
    const entry = byId !== null ? ([byId, s.pending.get(byId)] as const) : [...s.pending].find(([, c]) => name !== null && c.tool === importedTool(name).tool);
    const [callId, call] = entry ?? [null, undefined];
    if (callId === null || !call) return this.ctx.quarantine(ref, `system/permission_denied for ${name ?? 'a tool'} with no pending tool_use in this transcript`);
    s.denied.set(callId, { ts, ref, turn: call.turn, tool: call.tool });
  }

  /** Every session of the file ends with the file: start and end with what the transcript knows. */
  finish(): void {
    for (const s of this.sessions.values()) {
      this.endMessage(s);
      endSession(s, this.ctx);
    }
  }

  /** Writes the model call of the message just finished (its lines are consecutive). */
  private endMessage(s: Session): void {
    bookModelCall(s, this.ctx);
  }

}

