/**
 * Closed label sets (docs/event-contract.md, docs/harness-rules.md#denial-fuse, docs/harness-rules.md#telemetry-discipline). A label is something a
 * report groups by, so its cardinality must be bounded: paths, commands and
 * message text never appear here. Extend a set only by adding to it.
 */
import { z } from 'zod';

export const CONTRACT_VERSION = 1 as const;

/**
 * Pre-execution kinds: the tool body never ran. `unavailable`: the tool's
 * source is not ready — an MCP server still connecting or reconnecting, or
 * one that failed (docs/harness-rules.md#mcp-pending: "not there yet" is not "does not exist",
 * so it is never counted as `not_found`). `defense_blocked`: a defense
 * (src/harness/defenses/) refused the call before it ran.
 */
export const PRE_EXECUTION_FAILURE_KINDS = [
  'not_found',
  'hook_blocked',
  'permission_denied',
  'invalid_input',
  'cascade_skipped',
  'unavailable',
  'defense_blocked',
] as const;
/** Execution kinds: the tool body started. `exception` (our bug) and `tool_error` (tool reported an error) are never merged. */
export const EXECUTION_FAILURE_KINDS = ['timeout', 'aborted', 'exception', 'tool_error'] as const;
export const FailureKind = z.enum([...PRE_EXECUTION_FAILURE_KINDS, ...EXECUTION_FAILURE_KINDS]);
export type FailureKind = z.infer<typeof FailureKind>;

/** Provider stop reasons, classified. `null` and `unknown` are classes of their own so they can be counted. */
export const StopClass = z.enum([
  'tool_use',
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'pause_turn',
  'refusal',
  'content_filter',
  'context_window_exceeded',
  'null',
  'unknown',
]);
export type StopClass = z.infer<typeof StopClass>;

export const ModelErrorKind = z.enum([
  'rate_limited',
  'overloaded',
  'server_error',
  'timeout',
  'connection',
  'stream_interrupted',
  'invalid_request',
  'auth',
  'unknown',
]);
export type ModelErrorKind = z.infer<typeof ModelErrorKind>;

export const SessionOutcome = z.enum(['passed', 'failed', 'error', 'aborted']);
export type SessionOutcome = z.infer<typeof SessionOutcome>;

/**
 * Turn-stop attribution (docs/harness-rules.md#termination): why the loop ended. When several apply the
 * priority is explicit reason > abort > max turns > error.
 */
export const TurnStop = z.enum([
  'end_turn', // model finished (whitelisted end stop reason, nothing pending)
  'max_tokens', // output cut off; cut tool calls answered with errors, loop ended
  'refusal',
  'content_filter',
  'context_window_exceeded',
  'stop_reason_unhandled', // null / unknown stop reason: fail closed
  'defense_stop',
  'token_budget',
  'context_limit', // the prompt would exceed the context window even after compaction: not sent
  'aborted',
  'max_turns',
  'model_error',
  'harness_error',
]);
export type TurnStop = z.infer<typeof TurnStop>;

/**
 * Why the harness told the model about deferred tools: `after_compaction`
 * (the loaded ones again: compaction may have elided the tool_search results
 * that loaded them, and any announced earlier); `new_deferred` (tools that
 * appeared during the session, each announced once).
 */
export const AnnounceReason = z.enum(['after_compaction', 'new_deferred']);
export type AnnounceReason = z.infer<typeof AnnounceReason>;

export const ToolSource = z.enum(['builtin', 'mcp', 'deferred']);

/**
 * What a tool event's `duration_ms` measures. `measured` (the meaning when the
 * field is absent): the call's own execution time, timed by the harness that
 * ran it. `turn`: seen from the provider's side of the wire (the black-box
 * lab), from the response that issued the tool_use to the request carrying its
 * result, so it includes the harness's own work and any sibling calls.
 * `timestamps`: derived from the timestamps of an imported trace. Only
 * `measured` durations are per-tool timings (docs/harness-rules.md#per-call-durations); reports keep the
 * others apart.
 */
export const DurationSource = z.enum(['measured', 'turn', 'timestamps']);
export type DurationSource = z.infer<typeof DurationSource>;
export type ToolSource = z.infer<typeof ToolSource>;

export const PermissionDecisionValue = z.enum(['allow', 'ask', 'deny']);
export type PermissionDecisionValue = z.infer<typeof PermissionDecisionValue>;

/** Which step of the permission chain decided (docs/harness-rules.md#permission-chain). */
export const PermissionSource = z.enum([
  'hook',
  'deny_rule',
  'dangerous_command',
  'disabled_tool',
  'path_guard',
  'protected_path',
  'ask_rule',
  'tool_check',
  'allow_rule',
  'mode',
  'read_only',
  'session_memory',
  'denial_fuse',
  'user',
  'default',
]);
export type PermissionSource = z.infer<typeof PermissionSource>;

export const PermissionMode = z.enum(['default', 'acceptEdits', 'plan', 'bypass']);
export type PermissionMode = z.infer<typeof PermissionMode>;

/** `--sandbox`: bubblewrap required, used when it works (auto), or off. */
export const SandboxMode = z.enum(['required', 'auto', 'off']);
export type SandboxMode = z.infer<typeof SandboxMode>;
/** The OS sandbox that ran a session's bash commands. */
export const SandboxKind = z.enum(['bubblewrap', 'none']);
export type SandboxKind = z.infer<typeof SandboxKind>;

/**
 * How a session's model calls were answered: the mock in-process (`memory`)
 * or over a real loopback socket (`http`), a live provider (`live`), or a
 * recording played back (`replay`).
 */
export const SessionTransport = z.enum(['memory', 'http', 'live', 'replay']);
export type SessionTransport = z.infer<typeof SessionTransport>;

export const HookName = z.enum(['pre_tool_use', 'post_tool_use', 'post_tool_use_failure']);
/** `failed`: a PostToolUse hook threw or timed out and the output passed unchanged (a failing PreToolUse hook is `blocked`). */
export const HookEffect = z.enum(['none', 'blocked', 'input_modified', 'output_modified', 'decision', 'failed']);

/**
 * The defenses faultline ships (src/harness/defenses/ has one file each, and
 * a test checks that every name here is implemented there). A trace may also
 * name a user's own defense (a suite's `defenses:` module, or another
 * harness's guard through the emitter): `DefenseName` is a label pattern, not
 * this list, so such a defense is reported like a shipped one.
 */
export const ShippedDefense = z.enum([
  'cut_tool_call_guard',
  'end_turn_fallthrough',
  'stop_reason_fail_closed',
  'empty_args_retry_cap',
  'identical_call_loop',
  'low_yield_spin',
  'fact_source_conflict',
  'reminder_cap',
  'shape_loop',
  'spill_read_loop',
  'denial_fuse',
  'dangerous_command_block',
  'protected_path_guard',
  'injection_guard',
  'token_budget',
]);
export type ShippedDefense = z.infer<typeof ShippedDefense>;

/** A guardrail of another harness, seen in an imported trace (OpenAI Agents SDK guardrail spans); its own name is in `external_name`. */
export const EXTERNAL_GUARDRAIL = 'external_guardrail';

/**
 * A defense's label: lower-case letters, digits and `_`, starting with a
 * letter, at most 64 characters. Bounded in practice (one per implemented
 * defense), never free text, so it stays a safe label (docs/harness-rules.md#telemetry-discipline).
 */
export const DEFENSE_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
export const DefenseName = z.string().regex(DEFENSE_NAME_PATTERN, 'a defense name is lower-case letters, digits and _, starting with a letter (max 64)');
export type DefenseName = z.infer<typeof DefenseName>;

/**
 * What a defense did when it fired. `alert`: it only reported (a detector too
 * broad to act on, docs/harness-rules.md#false-positive-detector); `fallthrough`: it made the loop run a pending
 * call instead of ending (docs/harness-rules.md#degeneration-fallbacks); `reorder`: it changed the order of work.
 */
export const DefenseAction = z.enum(['hint', 'block', 'fuse', 'stop', 'ask', 'reorder', 'fallthrough', 'alert']);
export type DefenseAction = z.infer<typeof DefenseAction>;

/**
 * Where a defense is evaluated (defense_stats.evaluated_at): the report reads
 * the events of that point in the same session as docs/harness-rules.md#zero-trigger-triage's evidence that the
 * path ran (an `unwired` defense whose sessions have such events is broken
 * wiring; one whose sessions have none was never reached).
 */
export const DefenseHookPoint = z.enum(['model_response', 'tool_call', 'permission', 'tool_result', 'turn_end']);
export type DefenseHookPoint = z.infer<typeof DefenseHookPoint>;

export const McpState = z.enum(['connecting', 'connected', 'failed', 'disconnected', 'timeout']);

/**
 * Protocol-conformance checks of the black-box lab (src/mock/lab/checks.ts
 * says what each one means, its severity and its source). Ids are stable:
 * add, never rename.
 */
export const ConformanceCheck = z.enum([
  'orphan_tool_use',
  'orphan_tool_result',
  'duplicate_tool_id',
  'split_tool_results',
  'assistant_turn_missing',
  'tools_changed',
  'dynamic_prefix',
  'undocumented_schema_keys',
  'strict_schema_invalid',
  'cut_tool_use_executed',
  'retry_after_ignored',
  'client_error_retried',
  'unbounded_retries',
  'no_backoff',
  'transient_not_retried',
  'empty_tool_result',
  'oversized_tool_result',
  'hallucinated_tool_unanswered',
  'tools_dropped',
  'tool_results_not_first',
  'calls_left_unanswered',
  'request_after_end',
  'resent_turn_altered',
  'history_rewritten',
  'malformed_arguments_executed',
  'error_result_unflagged',
  'oversized_tool_definitions',
  'stall_not_detected',
  'no_turn_cap',
  'silent_truncation',
]);
export type ConformanceCheck = z.infer<typeof ConformanceCheck>;

/** `error`: the real API rejects it or the harness does the wrong thing; `warning`: it works but costs or misleads the model. */
export const ConformanceSeverity = z.enum(['error', 'warning']);
export type ConformanceSeverity = z.infer<typeof ConformanceSeverity>;

/** Placeholder label for a tool name the registry does not know (hallucinated). */
export const UNKNOWN_TOOL = '<unknown>' as const;
/** Tool names are labels only because they come from the registry; anything else becomes UNKNOWN_TOOL. */
export const ToolLabel = z.union([z.literal(UNKNOWN_TOOL), z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/)]);
export const MAX_REQUESTED_TOOL_CHARS = 64;
