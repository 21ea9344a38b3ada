/**
 * The emitter for other harnesses (`import { createEmitter } from
 * 'faultline/events'`): log your own agent loop as faultline v1 events, so
 * `faultline report`, `diff` and `export otel` read it like a faultline run.
 * Dependency-light on purpose: this module and what it imports need zod and
 * nothing else (no DuckDB, no SDKs, no report stack).
 *
 * It keeps the contract's rules for you: ids bound once per session, tool
 * names outside `knownTools` logged as `<unknown>` with the requested name
 * apart, expectation details redacted, each event checked before it is
 * written (an invalid one is dropped and counted in `stats().invalid`,
 * never thrown: telemetry must not break the harness), whole lines only.
 * A value you do not pass is written as `null` ("not available"), never
 * guessed; reports leave such events out of that figure and say so.
 */
import { randomBytes } from 'node:crypto';
import { RunEmitter, toolLabel, type SessionEmitter } from './emitter.js';
import type { z } from 'zod';
import type { HookEffect as HookEffectSchema, HookName as HookNameSchema } from './labels.js';
import type {
  DefenseAction,
  DefenseName,
  FailureKind,
  ModelErrorKind,
  PermissionDecisionValue,
  PermissionMode,
  PermissionSource,
  SessionOutcome,
  StopClass,
  ToolSource,
  TurnStop,
} from './labels.js';
import { JsonlSink, type SinkStats } from './sink.js';

export interface EmitterOptions {
  /** The JSONL trace to write (appended to; `truncate` starts it empty). */
  file: string;
  /** Default: `run-<utc time>-<random>`. */
  runId?: string;
  /** The tool names your harness offers; any other requested name is logged as `<unknown>`. Default: every name that fits a label. */
  knownTools?: readonly string[];
  /** Check each event against the contract before writing it (default true). */
  validate?: boolean;
  truncate?: boolean;
  /** Epoch-ms clock (tests). */
  now?: () => number;
  /** Hears the first write or validation problem, once. */
  onError?: (message: string) => void;
}

export interface SessionOptions {
  sessionId: string;
  /** The task the session works on (default: the session id). */
  taskId?: string;
  scenario?: string | null;
  repeat?: number;
  tools?: readonly string[];
  deferredTools?: readonly string[];
  defensesArmed?: readonly DefenseName[];
  /** Every defense the harness implements, armed or not: lets the report tell disarmed (implemented, off) from unknown. */
  defensesAvailable?: readonly DefenseName[];
  permissionMode?: PermissionMode;
  headless?: boolean;
}

interface Tokens {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

export interface ToolResultFields {
  /** Default: measured from `toolCall()` when logged through its handle, else not available. */
  durationMs?: number;
  outputBytes?: number;
  rawBytes?: number;
  empty?: boolean;
  truncated?: boolean;
  spilled?: boolean;
}

/** A call in flight: ends with success() or failure(), timed from toolCall(). */
export interface ToolCallLog {
  success(fields?: ToolResultFields): void;
  failure(kind: FailureKind, fields?: { durationMs?: number; errorCode?: string }): void;
}

type HookName = z.infer<typeof HookNameSchema>;
type HookEffect = z.infer<typeof HookEffectSchema>;

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
const tokens = (t: Tokens) => ({ input_tokens: orNull(t.inputTokens), output_tokens: orNull(t.outputTokens), cache_read_tokens: orNull(t.cacheReadTokens), cache_write_tokens: orNull(t.cacheWriteTokens) });
const round = (ms: number) => Math.round(ms * 1000) / 1000;

export class SessionLog {
  private readonly startedAt = performance.now();
  private readonly labels = new Map<string, string>();

  constructor(
    private readonly emitter: SessionEmitter,
    private readonly isKnown: (name: string) => boolean,
  ) {}

  get sessionId(): string {
    return this.emitter.sessionId;
  }

  modelRequest(f: { turn: number; provider?: string; model?: string; stream?: boolean; messagesCount?: number; toolsCount?: number; toolsBytes?: number; requestBytes?: number; prefixHash?: string }): void {
    this.emitter.emit('model_request', { turn: f.turn, provider: orNull(f.provider), model: orNull(f.model), stream: orNull(f.stream), messages_count: orNull(f.messagesCount), tools_count: orNull(f.toolsCount), tools_bytes: orNull(f.toolsBytes), request_bytes: orNull(f.requestBytes), prefix_hash: orNull(f.prefixHash) });
  }

  /** `stopClass`: the class of the raw stop reason (`'null'` when the provider sent none, `'unknown'` for one you do not recognise). */
  modelResponse(f: { turn: number; durationMs?: number; ttftMs?: number; stopReason: string | null; stopClass: StopClass; toolUseCount?: number } & Tokens): void {
    this.emitter.emit('model_response', { turn: f.turn, duration_ms: orNull(f.durationMs), ttft_ms: orNull(f.ttftMs), stop_reason: f.stopReason, stop_class: f.stopClass, tool_use_count: orNull(f.toolUseCount), ...tokens(f) });
  }

  modelError(f: { turn: number; errorKind: ModelErrorKind; status?: number; attempt?: number; willRetry?: boolean; retryAfterMs?: number }): void {
    this.emitter.emit('model_error', { turn: f.turn, error_kind: f.errorKind, status: orNull(f.status), attempt: orNull(f.attempt), will_retry: orNull(f.willRetry), retry_after_ms: orNull(f.retryAfterMs) });
  }

  /** Logs the call and returns a handle that logs its result with the time since this call. */
  toolCall(f: { turn: number; tool: string; toolUseId: string; batch?: number; concurrencySafe?: boolean; source?: ToolSource }): ToolCallLog {
    const { tool, requested_tool } = toolLabel(f.tool, this.isKnown);
    this.labels.set(f.toolUseId, tool);
    this.emitter.emit('tool_call', { turn: f.turn, tool, tool_use_id: f.toolUseId, requested_tool, batch: orNull(f.batch), concurrency_safe: orNull(f.concurrencySafe), source: orNull(f.source) });
    const started = performance.now();
    const ids = { turn: f.turn, tool: f.tool, toolUseId: f.toolUseId };
    return {
      success: (r = {}) => this.toolSuccess({ ...ids, ...r, durationMs: r.durationMs ?? round(performance.now() - started) }),
      failure: (kind, r = {}) => this.toolFailure({ ...ids, failureKind: kind, errorCode: r.errorCode, durationMs: r.durationMs ?? round(performance.now() - started) }),
    };
  }

  toolSuccess(f: { turn: number; tool: string; toolUseId: string } & ToolResultFields): void {
    this.emitter.emit('tool_success', { turn: f.turn, tool: this.label(f.tool, f.toolUseId), tool_use_id: f.toolUseId, duration_ms: orNull(f.durationMs), output_bytes: orNull(f.outputBytes), raw_bytes: orNull(f.rawBytes), empty: orNull(f.empty), truncated: orNull(f.truncated), spilled: orNull(f.spilled) });
  }

  /** `failureKind` from the code path that knows it (never from message text); `errorCode` a structured code (ENOENT, exit_1). */
  toolFailure(f: { turn: number; tool: string; toolUseId: string; failureKind: FailureKind; errorCode?: string; durationMs?: number }): void {
    this.emitter.emit('tool_failure', { turn: f.turn, tool: this.label(f.tool, f.toolUseId), tool_use_id: f.toolUseId, duration_ms: orNull(f.durationMs), failure_kind: f.failureKind, error_code: orNull(f.errorCode) });
  }

  permissionDecision(f: { turn: number; tool: string; toolUseId: string; decision: PermissionDecisionValue; source: PermissionSource; neededPrompt: boolean; ruleId?: string }): void {
    this.emitter.emit('permission_decision', { turn: f.turn, tool: this.label(f.tool, f.toolUseId), tool_use_id: f.toolUseId, decision: f.decision, source: f.source, needed_prompt: f.neededPrompt, rule_id: orNull(f.ruleId) });
  }

  hook(f: { turn: number; tool: string; toolUseId: string; hook: HookName; effect: HookEffect; durationMs?: number }): void {
    this.emitter.emit('hook', { turn: f.turn, tool: this.label(f.tool, f.toolUseId), tool_use_id: f.toolUseId, hook: f.hook, effect: f.effect, duration_ms: orNull(f.durationMs) });
  }

  defenseTrigger(f: { turn: number; defense: DefenseName; action: DefenseAction; tool?: string }): void {
    this.emitter.emit('defense_trigger', { turn: f.turn, defense: f.defense, action: f.action, tool: f.tool === undefined ? null : toolLabel(f.tool, this.isKnown).tool });
  }

  /**
   * One per armed defense at the end of the session: how often it was judged, how often it fired.
   * `judgedTools` / `judgedOutcome`: it judges only calls of these tools / only successes, so the
   * report counts only those as evidence when it was never evaluated ("not reached" vs "wiring broken").
   */
  defenseStats(f: { defense: DefenseName; evaluated: number; triggered: number; judgedTools?: string[]; judgedOutcome?: 'success' }): void {
    this.emitter.emit('defense_stats', {
      defense: f.defense,
      evaluated: f.evaluated,
      triggered: f.triggered,
      ...(f.judgedTools !== undefined ? { judged_tools: f.judgedTools } : {}),
      ...(f.judgedOutcome !== undefined ? { judged_outcome: f.judgedOutcome } : {}),
    });
  }

  expectation(id: string, ok: boolean, detail: string): void {
    this.emitter.expectation(id, ok, detail);
  }

  /** `durationMs` defaults to the time since the session was opened. */
  end(f: { outcome: SessionOutcome; stop: TurnStop; turns: number; durationMs?: number } & Tokens): void {
    this.emitter.emit('session_end', { outcome: f.outcome, stop: f.stop, turns: f.turns, ...tokens(f), duration_ms: f.durationMs ?? round(performance.now() - this.startedAt) });
  }

  /** The label a call was logged under, so its result carries the same one. */
  private label(name: string, id: string): string {
    return this.labels.get(id) ?? toolLabel(name, this.isKnown).tool;
  }
}

export interface Emitter {
  readonly runId: string;
  /** Opens a session (writes session_start). */
  session(options: SessionOptions): SessionLog;
  /** Run-level facts, all of them yours to state: `version` is your harness's. */
  runStart(f: { suite: string; provider: string; model: string; version: string; configHash: string; tasks: number }): void;
  runEnd(f: { sessions: number; passed: number; failed: number; errored: number; aborted: number; durationMs: number }): void;
  flush(): void;
  close(): void;
  stats(): SinkStats;
}

export function createEmitter(options: EmitterOptions): Emitter {
  const sink = new JsonlSink(options.file, { validate: options.validate ?? true, truncate: options.truncate, now: options.now, onError: options.onError && ((e) => options.onError?.(String(e))) });
  const runId = options.runId ?? `run-${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}Z-${randomBytes(3).toString('hex')}`;
  const known = options.knownTools ? new Set(options.knownTools) : null;
  const isKnown = (name: string) => known === null || known.has(name);
  const run = new RunEmitter(sink, runId);
  return {
    runId,
    session(o) {
      const s = run.session(o.sessionId, o.taskId ?? o.sessionId);
      const labels = (names: readonly string[] | undefined) => (names === undefined ? null : names.map((n) => toolLabel(n, isKnown).tool));
      s.emit('session_start', { scenario: o.scenario ?? null, repeat: orNull(o.repeat), defenses_armed: o.defensesArmed ? [...o.defensesArmed] : null, ...(o.defensesAvailable ? { defenses_available: [...o.defensesAvailable] } : {}), tools: labels(o.tools), deferred_tools: labels(o.deferredTools), permission_mode: orNull(o.permissionMode), headless: orNull(o.headless) });
      return new SessionLog(s, isKnown);
    },
    runStart(f) {
      run.emit('run_start', { suite: f.suite, provider: f.provider, model: f.model, faultline_version: f.version, node_version: process.version, config_hash: f.configHash, tasks: f.tasks });
    },
    runEnd(f) {
      run.emit('run_end', { sessions: f.sessions, passed: f.passed, failed: f.failed, errored: f.errored, aborted: f.aborted, duration_ms: f.durationMs });
    },
    flush: () => sink.flush(),
    close: () => sink.close(),
    stats: () => sink.stats(),
  };
}
