/** Events of tool calls: announcement, call, result, permission, hooks and defenses (part of the event catalog, assembled in schemas.ts). */
import { z } from 'zod';
import { AnnounceReason, DefenseAction, DefenseHookPoint, DefenseName, DurationSource, FailureKind, HookEffect, HookName, MAX_REQUESTED_TOOL_CHARS, PermissionDecisionValue, PermissionSource, ToolLabel, ToolSource } from './labels.js';
import { nonNeg, ms, text, sessionScoped, turnScoped, toolScoped, unknown, stageTimes } from './schema-fields.js';

export const TOOL_EVENT_SCHEMAS = {
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
} as const;
