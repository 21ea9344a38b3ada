/**
 * The reading of one Claude Code transcript file (see claude-code.ts for the
 * format): per session, the pending tool_use blocks by id, the model message
 * being assembled from its lines, and what the session end will need. State
 * is kept per file, so a directory of any size is read in the memory of its
 * largest session.
 */
import { basename } from 'node:path';
import { classifyAnthropicStop } from '../providers/stop-class.js';
import { kindForStatus } from '../providers/classify-error.js';
import type { PermissionMode } from '../events/labels.js';
import { between, count, importedTool, isObject, isoMs, resultBytes, str, REQUEST_NOT_RECORDED } from './common.js';
import type { ImportContext, RecordRef } from './types.js';
import { nonExecutionKind, resultMeta } from './claude-code-permissions.js';

type Json = Record<string, unknown>;

interface Call {
  tool: string;
  turn: number;
  ts: number | null;
}

interface Message {
  id: string;
  turn: number;
  model: string | null;
  ts: number | null;
  stopReason: string | null;
  usage: Json | null;
  toolUses: number;
  ref: RecordRef;
}

interface Session {
  sessionId: string;
  taskId: string;
  runId: string;
  first: number | null;
  last: number | null;
  ref: RecordRef;
  turns: number;
  permissionMode: PermissionMode | null;
  /** The tools offered (stream-json's init line lists them). */
  tools: string[] | null;
  message: Message | null;
  /** Responses seen (by message id), so a repeated line is not a second call. */
  responses: Set<string>;
  tokens: { input: number; output: number; read: number; write: number } | null;
  tokensKnown: boolean;
  pending: Map<string, Call>;
  done: Map<string, { tool: string; turn: number }>;
  /** `--output-format stream-json` output, not a transcript: its assistant lines carry the usage of the stream's start (output tokens not final). */
  stream: boolean;
  /** The stream's `result` line: the run's own totals. */
  result: Json | null;
  /** Denials announced by a system permission_denied line (stream-json), decided when the call's result says how (or at the end). */
  denied: Map<string, { ts: number | null; ref: RecordRef; turn: number; tool: string }>;
  deniedCount: number;
}

/**
 * Claude Code's own words for a denied call, in the tool result it writes
 * instead of running the tool (`is_error: true`; `toolUseResult` /
 * `tool_use_result` repeats it with "Error: "): "Claude requested
 * permissions to <use X | write to P | read from P>, but you haven't granted
 * it yet." when the permission mode asked and nobody could answer (headless:
 * the default ask is a deny), and "The user doesn't want to proceed with this
 * tool use..." ("User rejected tool use") when a person said no. These are
 * fixed texts of the code path that decided, not a tool's output.
 */
export function permissionDenial(content: unknown, toolUseResult: unknown): 'default' | 'user' | null {
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : '')).join('') : '';
  const extra = typeof toolUseResult === 'string' ? toolUseResult : '';
  if (/^(Error: )?Claude requested permissions to .*, but you haven't granted it yet\.?$/s.test(text.trim()) || /^Error: Claude requested permissions to /.test(extra)) return 'default';
  if (text.startsWith("The user doesn't want to proceed with this tool use") || extra === 'User rejected tool use') return 'user';
  return null;
}

/** A line of `claude -p --output-format stream-json`: snake_case session_id, no sessionId. */
const isStreamLine = (line: Json) => 'session_id' in line && !('sessionId' in line);

const MODES: Readonly<Record<string, PermissionMode>> = { default: 'default', acceptEdits: 'acceptEdits', plan: 'plan', bypassPermissions: 'bypass' };
const HOOKS: Readonly<Record<string, 'pre_tool_use' | 'post_tool_use' | 'post_tool_use_failure'>> = { PreToolUse: 'pre_tool_use', PostToolUse: 'post_tool_use', PostToolUseFailure: 'post_tool_use_failure' };
const HOOK_EFFECTS: Readonly<Record<string, 'none' | 'blocked' | 'failed'>> = {
  hook_success: 'none',
  hook_additional_context: 'none',
  hook_blocking_error: 'blocked',
  hook_non_blocking_error: 'failed',
  hook_cancelled: 'failed',
};

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
      if (type === 'user') return this.user(session, value, ts, ref);
      if (type === 'system') return this.system(session, value, ts, ref);
      if (type === 'attachment') return this.attachment(session, value, ts, ref);
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
      session = {
        sessionId: id,
        taskId: main,
        runId: `claude-code:${main}`,
        first: null,
        last: null,
        ref,
        turns: 0,
        permissionMode: null,
        tools: null,
        message: null,
        responses: new Set(),
        tokens: { input: 0, output: 0, read: 0, write: 0 },
        tokensKnown: true,
        pending: new Map(),
        done: new Map(),
        stream: isStreamLine(line),
        result: null,
        denied: new Map(),
        deniedCount: 0,
      };
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

  private scope(s: Session) {
    return { run_id: s.runId, session_id: s.sessionId, task_id: s.taskId };
  }

  private assistant(s: Session, line: Json, ts: number | null, ref: RecordRef): void {
    const message = isObject(line.message) ? line.message : null;
    if (!message) return this.ctx.quarantine(ref, 'assistant line without a message');
    if (line.isApiErrorMessage === true) {
      // A synthetic message standing for a request that failed for good: an error, not a response.
      this.endMessage(s);
      const status = typeof line.apiErrorStatus === 'number' ? line.apiErrorStatus : null;
      this.ctx.emit({ ...this.scope(s), event: 'model_error', ts, turn: s.turns + 1, error_kind: status === null ? 'unknown' : kindForStatus(status), status, attempt: null, will_retry: false, retry_after_ms: null }, ref);
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
      this.ctx.emit({ ...this.scope(s), event: 'tool_call', ts, turn: m.turn, tool, tool_use_id: callId, requested_tool, batch: null, concurrency_safe: null, source: name.startsWith('mcp__') ? 'mcp' : null }, ref);
    }
  }

  /** Writes the model call of the message just finished (its lines are consecutive). */
  private endMessage(s: Session): void {
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
    const scope = { ...this.scope(s), turn: m.turn };
    this.ctx.emit({ ...scope, event: 'model_request', ts: null, provider: null, model: m.model, ...REQUEST_NOT_RECORDED }, m.ref);
    this.ctx.emit(
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

  private user(s: Session, line: Json, ts: number | null, ref: RecordRef): void {
    const message = isObject(line.message) ? line.message : null;
    const blocks = message && Array.isArray(message.content) ? message.content.filter(isObject) : [];
    const results = blocks.filter((b) => b.type === 'tool_result');
    if (results.length === 0) return this.skip(ref, 'user/prompt (its text is not logged)');
    // A line is used whole or quarantined whole: every result must pair before any is booked.
    const seen = new Set<string>();
    for (const block of results) {
      const callId = str(block.tool_use_id);
      if (callId === null) return this.ctx.quarantine(ref, 'tool_result block without a tool_use_id');
      if (!s.pending.has(callId) || seen.has(callId)) {
        return this.ctx.quarantine(ref, s.done.has(callId) || seen.has(callId) ? `second tool_result for tool_use ${callId.slice(0, 64)}` : `tool_result for tool_use ${callId.slice(0, 64)}, which is not in this transcript`);
      }
      seen.add(callId);
    }
    for (const block of results) {
      const callId = str(block.tool_use_id) as string;
      const call = s.pending.get(callId) as Call;
      s.pending.delete(callId);
      s.done.set(callId, { tool: call.tool, turn: call.turn });
      const common = { ...this.scope(s), ts, turn: call.turn, tool: call.tool, tool_use_id: callId, duration_ms: between(call.ts, ts), duration_source: 'timestamps' as const };
      // Claude Code 2.1 records the permission check and why a call did not run (claude-code-permissions.ts); older builds only the denial text.
      const meta = resultMeta(line, callId, results.length);
      const textDenial = block.is_error === true ? permissionDenial(block.content, results.length === 1 ? (line.toolUseResult ?? line.tool_use_result) : undefined) : null;
      const decision = meta.decision ?? (textDenial ? { decision: 'deny' as const, source: textDenial, needed_prompt: true } : null);
      const { duration_ms: _d, duration_source: _s, ...decided } = common;
      // A system permission_denied line (stream-json) announced this denial: the decision is booked on that line, as the result records it.
      const announced = s.denied.get(callId);
      s.denied.delete(callId);
      if (announced) this.ctx.emit({ ...decided, ts: announced.ts, event: 'permission_decision', ...(decision ?? { decision: 'deny', source: 'default', needed_prompt: true }), rule_id: null }, announced.ref);
      else if (decision) this.ctx.emit({ ...decided, event: 'permission_decision', ...decision, rule_id: null }, ref);
      const notRun = block.is_error === true ? (nonExecutionKind(meta.kind, decision) ?? (textDenial || decision?.decision === 'deny' ? 'permission_denied' : null)) : null;
      if (notRun === 'permission_denied' || notRun === 'hook_blocked') s.deniedCount++;
      // Denied before it ran: no execution time (an interrupted call did run for a while).
      if (notRun) this.ctx.emit({ ...common, duration_ms: notRun === 'aborted' ? common.duration_ms : null, event: 'tool_failure', failure_kind: notRun, error_code: null }, ref);
      else if (block.is_error === true) this.ctx.emit({ ...common, event: 'tool_failure', failure_kind: 'tool_error', error_code: null }, ref);
      else {
        const bytes = resultBytes(block.content);
        this.ctx.emit({ ...common, event: 'tool_success', output_bytes: bytes, raw_bytes: null, empty: bytes === null ? null : bytes === 0, truncated: null, spilled: null }, ref);
      }
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
        ...this.scope(s),
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

  private attachment(s: Session, line: Json, ts: number | null, ref: RecordRef): void {
    const a = isObject(line.attachment) ? line.attachment : {};
    const type = String(a.type ?? 'no type');
    const effect = HOOK_EFFECTS[type];
    const hook = HOOKS[String(a.hookEvent)];
    if (!effect) return this.skip(ref, `attachment/${type}`);
    if (!hook) return this.skip(ref, `attachment/${type} (${String(a.hookEvent ?? 'no hookEvent')} hook, not a tool hook)`);
    const callId = str(a.toolUseID);
    const call = callId === null ? undefined : (s.pending.get(callId) ?? s.done.get(callId));
    if (callId === null || !call) return this.ctx.quarantine(ref, `${type}: hook result for a tool_use not in this transcript`);
    this.ctx.emit({ ...this.scope(s), event: 'hook', ts, turn: call.turn, tool: call.tool, tool_use_id: callId, hook, effect, duration_ms: typeof a.durationMs === 'number' && a.durationMs >= 0 ? a.durationMs : null }, ref);
  }

  /** Every session of the file ends with the file: start and end with what the transcript knows. */
  finish(): void {
    for (const s of this.sessions.values()) {
      this.endMessage(s);
      const scope = this.scope(s);
      // A denial announced with no tool result after it: the announcement is all there is.
      for (const [callId, d] of s.denied) {
        this.ctx.emit({ ...scope, event: 'permission_decision', ts: d.ts, turn: d.turn, tool: d.tool, tool_use_id: callId, decision: 'deny', source: 'default', needed_prompt: true, rule_id: null }, d.ref);
        s.deniedCount++;
      }
      this.ctx.emit({ ...scope, event: 'session_start', ts: s.first, scenario: null, repeat: null, defenses_armed: null, tools: s.tools, deferred_tools: null, permission_mode: s.permissionMode, headless: null }, s.ref);
      const t = s.tokensKnown && s.tokens ? s.tokens : null;
      const r = s.result;
      const ru = r && isObject(r.usage) ? r.usage : null;
      const stop = r?.subtype === 'error_max_turns' ? 'max_turns' : null;
      this.ctx.emit(
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
      for (let i = 0; i < missed; i++) this.ctx.warn('a denial in the result line\'s permission_denials with no tool result read as a denial');
    }
  }
}

