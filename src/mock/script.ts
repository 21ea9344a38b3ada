/**
 * The model script: what the scripted mock model says, turn by turn. One
 * engine decides; thin encoders put the decision on each wire (DESIGN §4).
 *
 * Stop reasons are written in Anthropic vocabulary (`tool_use`, `end_turn`,
 * `max_tokens`, ...); the OpenAI encoder maps them (`tool_calls`, `stop`,
 * `length`, ...) and passes anything else through unchanged, so an unknown
 * reason stays unknown on both wires. `null` sends no stop reason at all.
 */
import { z } from 'zod';

export const ToolUseSpec = z.strictObject({
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()).default({}),
  /** Fixed tool_use id; by default the engine makes a deterministic one. */
  id: z.string().min(1).optional(),
  /** Exact wire arguments text (OpenAI) / partial JSON, for malformed-argument faults. Overrides `input` on the wire. */
  raw_arguments: z.string().optional(),
});
export type ToolUseSpec = z.infer<typeof ToolUseSpec>;

export const UsageSpec = z.strictObject({
  input_tokens: z.number().int().nonnegative().default(100),
  output_tokens: z.number().int().nonnegative().default(20),
  cache_read_tokens: z.number().int().nonnegative().default(0),
  cache_write_tokens: z.number().int().nonnegative().default(0),
});

/** A fixed reply. */
export const ReplySpec = z.strictObject({
  text: z.string().optional(),
  tool_use: z.array(ToolUseSpec).optional(),
  /** Default: `tool_use` when tool_use is present, else `end_turn`. */
  stop_reason: z.string().nullable().optional(),
  /** Cut the last tool_use's JSON arguments mid-string on the wire (with stop_reason max_tokens). */
  cut_tool_input: z.boolean().optional(),
  usage: UsageSpec.optional(),
});
export type ReplySpec = z.infer<typeof ReplySpec>;

/** A condition on the tool results of the previous turn (the last user message). */
export const ResultCondition = z.strictObject({
  /** Some result (optionally of `tool`) is an error. */
  any_error: z.boolean().optional(),
  /** A result's text contains this substring. */
  contains: z.string().optional(),
  /** Restrict the condition to results answering calls of this tool name. */
  tool: z.string().optional(),
});
export type ResultCondition = z.infer<typeof ResultCondition>;

/** A reactive turn: the first branch whose `when` holds (or has no `when`) is the reply. */
export const RuleSpec = z.strictObject({
  rule: z.array(z.strictObject({ when: ResultCondition.optional(), then: ReplySpec })).min(1),
});
export type RuleSpec = z.infer<typeof RuleSpec>;

export const TurnSpec = z.union([RuleSpec, ReplySpec]);
export type TurnSpec = z.infer<typeof TurnSpec>;

export const ModelScript = z.array(TurnSpec).min(1);
export type ModelScript = z.infer<typeof ModelScript>;

export function isRule(turn: TurnSpec): turn is RuleSpec {
  return 'rule' in turn;
}
