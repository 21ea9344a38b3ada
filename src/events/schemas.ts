/**
 * Event contract v1 (docs/event-contract.md). These zod schemas are the single source of
 * truth: TypeScript types, runtime validation, schema/events.v1.json and the
 * DuckDB column list are all derived from them.
 *
 * Every event is a flat object of scalars (no nested objects) so the same
 * column can be read by DuckDB with one declared type.
 *
 * Growing v1 without breaking a trace already written: a new field is
 * `.optional()` (absent in old lines, and its absence has one documented
 * meaning), a new event is a new entry, a closed label set only gains values.
 */
import { z } from 'zod';
import {
  AnnounceReason,
  CONTRACT_VERSION,
  ConformanceCheck,
  ConformanceSeverity,
  DefenseAction,
  DefenseHookPoint,
  DefenseName,
  DurationSource,
  FailureKind,
  HookEffect,
  HookName,
  McpState,
  ModelErrorKind,
  PermissionDecisionValue,
  PermissionMode,
  PermissionSource,
  SandboxKind,
  SandboxMode,
  SessionTransport,
  SessionOutcome,
  StopClass,
  ToolLabel,
  ToolSource,
  TurnStop,
  MAX_REQUESTED_TOOL_CHARS,
} from './labels.js';

const int = () => z.number().int();
const nonNeg = () => z.number().int().nonnegative();
const ms = () => z.number().nonnegative();
const id = () => z.string().min(1).max(128);
/** A short free-text field (not a label): capped so a trace line stays small. */
const text = (max: number) => z.string().max(max);

/** Fields on every line. `session_id` is absent on run-level events. */
const envelope = {
  /** Contract version; a reader refuses a line of a version it does not know. */
  v: z.literal(CONTRACT_VERSION),
  /** Epoch ms. `null` only in an imported trace whose source records no time (τ-bench trajectories). */
  ts: nonNeg().nullable(),
  /** Per-writer line counter from 0: a gap is a lost line, and it orders lines written in the same millisecond. */
  seq: nonNeg(),
  /** One run: a `faultline run`, a lab run, an import, or a user harness's process. */
  run_id: id(),
};
const sessionScoped = {
  ...envelope,
  /** One session: one task (and repeat) through the harness, from session_start to session_end. */
  session_id: id(),
  /** The suite task the session ran (an importer uses the source's own task or conversation id). */
  task_id: id(),
};
const turnScoped = {
  ...sessionScoped,
  /** The model turn within the session (faultline's harness counts from 1). */
  turn: nonNeg(),
};
const toolScoped = {
  ...turnScoped,
  /** The tool's name, a closed label: a name the harness does not know is `<unknown>` (the name itself goes to `requested_tool`). */
  tool: ToolLabel,
  /** The provider's id of the call, pairing tool_call with its one tool_success or tool_failure. */
  tool_use_id: id(),
};

/**
 * Not available in source: a field below declared with `unknown()` may be
 * `null`. faultline's own harness always knows these values and writes them;
 * an importer writes `null` when its source does not record the value
 * (rather than invent one), and so does the emitter for a value its caller
 * did not give. Every report leaves such events out of the figure that needs
 * the value and says so (src/analysis/sql/not_available.sql). Traces written
 * before the widening stay valid: it only accepts more.
 */
const unknown = <T extends z.ZodType>(schema: T) => schema.nullable();

/**
 * A call's `duration_ms` split in two, so a slow PreToolUse hook or a
 * permission prompt does not read as a slow tool: `execution_ms` is the tool
 * body alone (the execute stage; what per-tool latency is about),
 * `pipeline_ms` the rest of `duration_ms` (hooks, permission, validation,
 * truncation/spill). Absent: not recorded (a call refused before it ran has
 * no execution, other producers may not split it).
 */
const stageTimes = {
  execution_ms: ms().optional(),
  pipeline_ms: ms().optional(),
};

const tokens = {
  input_tokens: unknown(nonNeg()),
  output_tokens: unknown(nonNeg()),
  cache_read_tokens: unknown(nonNeg()),
  cache_write_tokens: unknown(nonNeg()),
};

export const EVENT_SCHEMAS = {
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
  /** The harness told the model, in a user-side text, about `tools_count` deferred tools (see AnnounceReason). */
  tools_announced: z.strictObject({
    ...turnScoped,
    event: z.literal('tools_announced'),
    reason: AnnounceReason,
    tools_count: nonNeg(),
  }),
  tool_call: z.strictObject({
    ...toolScoped,
    event: z.literal('tool_call'),
    /** The requested name when `tool` is `<unknown>` (hallucinated), cut to 64 chars. Not a label. */
    requested_tool: text(MAX_REQUESTED_TOOL_CHARS).nullable(),
    batch: unknown(nonNeg()),
    concurrency_safe: unknown(z.boolean()),
    source: unknown(ToolSource),
  }),
  tool_success: z.strictObject({
    ...toolScoped,
    event: z.literal('tool_success'),
    duration_ms: unknown(ms()),
    /** Absent means `measured` (see DurationSource); optional so traces written before it stay valid. */
    duration_source: DurationSource.optional(),
    ...stageTimes,
    output_bytes: unknown(nonNeg()),
    raw_bytes: unknown(nonNeg()),
    empty: unknown(z.boolean()),
    truncated: unknown(z.boolean()),
    spilled: unknown(z.boolean()),
  }),
  tool_failure: z.strictObject({
    ...toolScoped,
    event: z.literal('tool_failure'),
    duration_ms: unknown(ms()),
    /** Absent means `measured` (see DurationSource). */
    duration_source: DurationSource.optional(),
    ...stageTimes,
    failure_kind: FailureKind,
    /** Structured code (ENOENT, exit_1, a zod issue code), never message text. */
    error_code: text(64).nullable(),
  }),
  permission_decision: z.strictObject({
    ...toolScoped,
    event: z.literal('permission_decision'),
    decision: PermissionDecisionValue,
    source: PermissionSource,
    needed_prompt: z.boolean(),
    rule_id: text(128).nullable(),
  }),
  hook: z.strictObject({
    ...toolScoped,
    event: z.literal('hook'),
    hook: HookName,
    effect: HookEffect,
    duration_ms: unknown(ms()),
  }),
  defense_trigger: z.strictObject({
    ...turnScoped,
    event: z.literal('defense_trigger'),
    defense: DefenseName,
    action: DefenseAction,
    tool: ToolLabel.nullable(),
    /** The guardrail's own name when `defense` is `external_guardrail` (imported traces); absent otherwise. Not a label. */
    external_name: text(64).optional(),
  }),
  defense_stats: z.strictObject({
    ...sessionScoped,
    event: z.literal('defense_stats'),
    defense: DefenseName,
    /** As on defense_trigger. */
    external_name: text(64).optional(),
    evaluated: nonNeg(),
    triggered: nonNeg(),
    /** Where the defense is evaluated (DefenseHookPoint); absent: not recorded. */
    evaluated_at: DefenseHookPoint.optional(),
    /** It judges only calls of these tools at its point (e.g. bash commands); absent: every event there. */
    judged_tools: z.array(ToolLabel).max(64).optional(),
    /** `success`: it judges only calls that succeeded (a rule on a tool's output); absent: every call. */
    judged_outcome: z.enum(['success']).optional(),
  }),
  /**
   * One MCP server's connection state (src/harness/mcp/README.md). duration_ms:
   * 0 for `connecting`; the attempt's time for `connected`/`failed`/`timeout`;
   * how long the connection was up for `disconnected`. The optional fields are
   * absent in traces written before them; each absence means "not reported".
   */
  mcp_server: z.strictObject({
    ...sessionScoped,
    event: z.literal('mcp_server'),
    server: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    state: McpState,
    duration_ms: ms(),
    /** Connection attempt: 1 for the first connect, 1..N for the reconnects after a disconnect (numbered again). */
    attempt: z.number().int().positive().optional(),
    /** On failed/timeout/disconnected: another attempt is scheduled (false = final for this session). */
    will_retry: z.boolean().optional(),
    /** On connected: tools the server listed (tools/list, every page). */
    tools_listed: nonNeg().optional(),
    /**
     * On connected after a reconnect or notifications/tools/list_changed: tools
     * added, removed or whose description or input schema differ from what the
     * session registered first (a reordered list alone changes nothing).
     */
    tools_changed: nonNeg().optional(),
    /** Structured reason on failed/timeout/disconnected (ENOENT, closed, jsonrpc_-32603...), never message text. */
    error_code: text(64).nullable().optional(),
  }),
  /** One protocol-conformance violation seen by the black-box lab, from the provider's side of the wire. */
  conformance: z.strictObject({
    ...turnScoped,
    event: z.literal('conformance'),
    check_id: ConformanceCheck,
    severity: ConformanceSeverity,
    /** Where the rule comes from (a link into docs/harness-rules.md, the API that rejects it); stable per check. */
    source: text(64),
    /** Bytes at stake for the checks that count them (schema bloat per session, an oversized result); null otherwise. */
    bytes: nonNeg().nullable(),
    tool_use_id: id().nullable(),
    /** Redacted, capped human text: what was seen, where (turn, byte range, tool). */
    detail: text(1024),
  }),
  /** One per check per lab session, at session end: how often the check looked (0 = not exercised) and how often it fired. */
  conformance_stats: z.strictObject({
    ...sessionScoped,
    event: z.literal('conformance_stats'),
    check_id: ConformanceCheck,
    severity: ConformanceSeverity,
    evaluated: nonNeg(),
    violations: nonNeg(),
  }),
  /**
   * The harness saved the files a changing call (write, edit, a bash command
   * with targets) may touch before it ran (`taken`), or wrote a saved
   * snapshot back (`restored`, the user rewinding a change they reject or a
   * failed edit). `turn`, `tool` and `tool_use_id` are those of the call that
   * was snapshotted, also on `restored`.
   */
  snapshot: z.strictObject({
    ...toolScoped,
    event: z.literal('snapshot'),
    snapshot_action: z.enum(['taken', 'restored']),
    /** The snapshot's name below the state directory (`.faultline/snapshots/<id>`); what a restore is asked for. */
    snapshot_id: text(64),
    /** Files copied (taken) or written back with their saved bytes (restored). */
    snapshot_files: nonNeg(),
    /** Paths that did not exist before the call (taken), or such paths removed again (restored). */
    snapshot_created: nonNeg(),
    /** Paths left out: over the size cap (taken), or refused because a component changed into a link or the entry is not a plain file (restored). */
    snapshot_skipped: nonNeg(),
  }),
  expectation: z.strictObject({
    ...sessionScoped,
    event: z.literal('expectation'),
    id: text(128),
    ok: z.boolean(),
    /** Redacted, capped human text (what was expected vs seen). */
    detail: text(1024),
  }),
} as const;

export type EventName = keyof typeof EVENT_SCHEMAS;
export const EVENT_NAMES = Object.keys(EVENT_SCHEMAS) as EventName[];

export const AnyEvent = z.discriminatedUnion(
  'event',
  Object.values(EVENT_SCHEMAS) as unknown as [
    (typeof EVENT_SCHEMAS)[EventName],
    ...(typeof EVENT_SCHEMAS)[EventName][],
  ],
);

export type EventOf<N extends EventName> = z.infer<(typeof EVENT_SCHEMAS)[N]>;
export type FaultlineEvent = { [N in EventName]: EventOf<N> }[EventName];

/** Envelope keys the sink fills in; callers give the rest. */
export type EnvelopeKey = 'v' | 'ts' | 'seq';
export type EventInput<N extends EventName = EventName> = N extends EventName
  ? Omit<EventOf<N>, EnvelopeKey>
  : never;
