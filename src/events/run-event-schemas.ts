/** Events of a run, its sessions and their model calls (part of the event catalog, assembled in schemas.ts). */
import { z } from 'zod';
import { DefenseName, ModelErrorKind, PermissionMode, SandboxKind, SandboxMode, SessionOutcome, SessionTransport, StopClass, ToolLabel, TurnStop } from './labels.js';
import { int, nonNeg, ms, id, text, envelope, sessionScoped, turnScoped, unknown, tokens } from './schema-fields.js';

export const RUN_EVENT_SCHEMAS = {
  run_start: z.strictObject({
    ...envelope,
    event: z.literal('run_start'),
    suite: text(512),
    provider: text(64),
    model: text(128),
    faultline_version: text(32),
    node_version: text(32),
    config_hash: text(64),
    tasks: nonNeg(),
    /**
     * The logical run this run is part of, shared by the shards of one sharded
     * run (`faultline run --shard i/n`), so reports can merge them while each
     * shard keeps its own run_id. Absent: the run is a logical run of its own.
     */
    logical_run_id: id().optional(),
    /** 1-based shard of `--shard i/n` and the shard count. Absent: the run ran the whole suite (1 of 1). */
    shard_index: z.number().int().positive().optional(),
    shard_count: z.number().int().positive().optional(),
  }),
  run_end: z.strictObject({
    ...envelope,
    event: z.literal('run_end'),
    sessions: nonNeg(),
    passed: nonNeg(),
    failed: nonNeg(),
    errored: nonNeg(),
    aborted: nonNeg(),
    duration_ms: ms(),
  }),
  session_start: z.strictObject({
    ...sessionScoped,
    event: z.literal('session_start'),
    scenario: text(128).nullable(),
    repeat: unknown(nonNeg()),
    defenses_armed: unknown(z.array(DefenseName)),
    /**
     * Every defense the harness that wrote the session implements, armed or
     * not: the report tells a defense switched off (`disarmed`) from a name
     * the harness does not implement (`unknown`). Absent: not recorded.
     */
    defenses_available: z.array(DefenseName).optional(),
    tools: unknown(z.array(ToolLabel)),
    deferred_tools: unknown(z.array(ToolLabel)),
    permission_mode: unknown(PermissionMode),
    headless: unknown(z.boolean()),
    /** The OS sandbox bash ran in. Absent (traces before it was recorded): unknown. */
    sandbox: SandboxKind.optional(),
    /** The sandbox that was asked for (`--sandbox` / the task's `sandbox`). Absent: unknown. */
    sandbox_mode: SandboxMode.optional(),
    /** What answered the session's model calls (memory, http, live, replay). Absent (traces before it was recorded, imports): unknown. */
    transport: SessionTransport.optional(),
  }),
  session_end: z.strictObject({
    ...sessionScoped,
    event: z.literal('session_end'),
    outcome: unknown(SessionOutcome),
    stop: unknown(TurnStop),
    turns: nonNeg(),
    ...tokens,
    duration_ms: unknown(ms()),
  }),
  model_request: z.strictObject({
    ...turnScoped,
    event: z.literal('model_request'),
    provider: unknown(text(64)),
    model: unknown(text(128)),
    stream: unknown(z.boolean()),
    messages_count: unknown(nonNeg()),
    tools_count: unknown(nonNeg()),
    tools_bytes: unknown(nonNeg()),
    request_bytes: unknown(nonNeg()),
    prefix_hash: unknown(text(64)),
    /**
     * Bytes the definitions of the deferred tools not loaded yet would add to
     * `tools_bytes` (what deferring them saves on this request; 0 when none
     * is deferred). Absent: not recorded (traces before it, imports).
     */
    deferred_tools_bytes: nonNeg().optional(),
    /** The harness's estimate of this prompt in tokens (context manager: request bytes / 4, or the provider's last ratio). Absent: not estimated. */
    prompt_tokens_estimate: nonNeg().optional(),
  }),
  model_response: z.strictObject({
    ...turnScoped,
    event: z.literal('model_response'),
    duration_ms: unknown(ms()),
    ttft_ms: ms().nullable(),
    stop_reason: text(64).nullable(),
    /** `'null'` is the class of a response with no stop reason; SQL NULL (`null` in JSON) means the source did not record one. */
    stop_class: unknown(StopClass),
    tool_use_count: unknown(nonNeg()),
    ...tokens,
  }),
  model_error: z.strictObject({
    ...turnScoped,
    event: z.literal('model_error'),
    error_kind: ModelErrorKind,
    status: int().nullable(),
    attempt: unknown(z.number().int().positive()),
    will_retry: unknown(z.boolean()),
    retry_after_ms: ms().nullable(),
  }),
  /**
   * The context manager compacted the history before this turn's request
   * (old tool results elided, then whole old turns dropped, pairs kept).
   * `fits` false: even compacted, the prompt exceeds the window; the session
   * stops with `context_limit` and the request is not sent.
   */
  context_compaction: z.strictObject({
    ...turnScoped,
    event: z.literal('context_compaction'),
    tokens_before: nonNeg(),
    tokens_after: nonNeg(),
    threshold_tokens: nonNeg(),
    window_tokens: nonNeg(),
    results_elided: nonNeg(),
    turns_dropped: nonNeg(),
    fits: z.boolean(),
  }),
} as const;
