/**
 * The model script: what the scripted mock model says, turn by turn. One
 * engine decides; thin encoders put the decision on each wire (docs/architecture.md#the-mock-provider).
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
  /**
   * Send the input (as mapped onto the harness's tool) with the comma between
   * its first two members left out: complete, yet not parseable. Unlike
   * raw_arguments it follows the harness's key names and paths.
   */
  malformed: z.boolean().optional(),
});
export type ToolUseSpec = z.infer<typeof ToolUseSpec>;

export const UsageSpec = z.strictObject({
  input_tokens: z.number().int().nonnegative().default(100),
  output_tokens: z.number().int().nonnegative().default(20),
  cache_read_tokens: z.number().int().nonnegative().default(0),
  cache_write_tokens: z.number().int().nonnegative().default(0),
});

/**
 * A wire-level fault for one turn (docs/architecture.md#the-mock-provider), carried out by the mount. Content
 * faults (null/unknown stop reasons, cut tool input, malformed or empty
 * arguments, duplicate ids, hallucinated names) are ordinary reply fields; this
 * is what happens on the connection. The engine is stateless, so `times` is
 * counted by the mount's session, per turn: the first `times` attempts of the
 * turn get the fault, later attempts (the harness's retries) get the reply.
 */
/** Where in a stream a fault lands: after N events, or inside the last tool call's arguments on any wire. */
export const EventPosition = z.union([z.number().int().nonnegative(), z.literal('inside_tool_input')]);
export type EventPosition = z.infer<typeof EventPosition>;

export const FaultSpec = z
  .strictObject({
    /** Answer with this HTTP status and the wire's real error envelope instead of the reply. */
    status: z.number().int().min(400).max(599).optional(),
    /** Error `type` in the envelope (default per status, e.g. 529 -> overloaded_error). */
    error_type: z.string().min(1).optional(),
    /** Error message in the envelope. */
    message: z.string().optional(),
    /** Exact error body text, replacing the envelope (e.g. a gateway's HTML page). */
    body: z.string().optional(),
    /** Extra response headers, e.g. `retry-after-ms: "200"`, `x-should-retry: "false"`. */
    headers: z.record(z.string(), z.string()).optional(),
    /** Wait this long before sending the status line and headers. */
    delay_ms: z.number().int().nonnegative().optional(),
    /** Streaming: wait this long before each SSE event. */
    chunk_delay_ms: z.number().int().nonnegative().optional(),
    /** Destroy the connection before any byte is sent (ECONNRESET on the client). */
    reset: z.literal(true).optional(),
    /**
     * Destroy the connection after this many SSE events (non-streaming: after
     * half the JSON body). `inside_tool_input`: inside the last call's
     * arguments, before anything after them (the finish reason too), on
     * every wire: the wires stream a reply in different numbers of events.
     */
    cut_after_events: EventPosition.optional(),
    /**
     * Streaming: send this many events, then nothing more while keeping the
     * connection open (a stalled upstream): only a client with an idle
     * timeout notices. Non-streaming: the headers, then nothing.
     */
    stall_after_events: EventPosition.optional(),
    /** Streaming: send the wire's in-stream error event after this many events, then end the stream. */
    sse_error: z
      .strictObject({
        after_events: EventPosition.default(1),
        /** Anthropic `error.type` / OpenAI `error.type` (default overloaded_error / server_error). */
        type: z.string().min(1).optional(),
        message: z.string().optional(),
      })
      .optional(),
    /** Attempts of this turn that get the fault (default: every attempt). */
    times: z.number().int().positive().optional(),
  })
  .refine((f) => [f.status !== undefined, f.reset === true, f.cut_after_events !== undefined, f.sse_error !== undefined, f.stall_after_events !== undefined].filter(Boolean).length <= 1, {
    message: 'a fault is one of status, reset, cut_after_events, sse_error or stall_after_events (delays combine with any)',
  });
export type FaultSpec = z.infer<typeof FaultSpec>;

/**
 * Picks a turn by what the request says instead of by position: a turn with
 * `match` answers every request it matches, and takes no place among the
 * positional turns. For harnesses that interleave requests that are not the
 * scripted conversation (a title or summary call, a sub-agent) and want them
 * answered in a given way. Every field given must hold.
 */
export const MatchSpec = z
  .strictObject({
    /** The system prompt contains this text. */
    system: z.string().min(1).optional(),
    /** The last user message's text contains this text. */
    user: z.string().min(1).optional(),
    /** The request carries tools (true) or none (false). */
    tools: z.boolean().optional(),
  })
  .refine((m) => m.system !== undefined || m.user !== undefined || m.tools !== undefined, { message: 'match needs system, user or tools' });
export type MatchSpec = z.infer<typeof MatchSpec>;

/** A fixed reply. */
export const ReplySpec = z.strictObject({
  /** Reasoning the model shows before its answer: a Responses `reasoning` item, an Anthropic `thinking` block (Chat Completions has none). */
  reasoning: z.string().min(1).optional(),
  text: z.string().optional(),
  tool_use: z.array(ToolUseSpec).optional(),
  /** Default: `tool_use` when tool_use is present, else `end_turn`. */
  stop_reason: z.string().nullable().optional(),
  /** Cut the last tool_use's JSON arguments mid-string on the wire (with stop_reason max_tokens). */
  cut_tool_input: z.boolean().optional(),
  usage: UsageSpec.optional(),
  /** A wire-level fault for this turn (see FaultSpec). */
  fault: FaultSpec.optional(),
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
  /** Text beside the results in the last user message (a harness's reminder) contains this substring. */
  reminder: z.string().optional(),
});
export type ResultCondition = z.infer<typeof ResultCondition>;

/** A reactive turn: the first branch whose `when` holds (or has no `when`) is the reply. */
export const RuleSpec = z.strictObject({
  match: MatchSpec.optional(),
  rule: z.array(z.strictObject({ when: ResultCondition.optional(), then: ReplySpec })).min(1),
});
export type RuleSpec = z.infer<typeof RuleSpec>;

/** A fixed turn: a reply, optionally matched by content (see MatchSpec). */
export const FixedTurnSpec = ReplySpec.extend({
  match: MatchSpec.optional(),
  /** The last positional turn answers every later turn too (a model that never stops calling tools: does the harness cap its turns?). */
  repeat: z.literal(true).optional(),
});

export const TurnSpec = z.union([RuleSpec, FixedTurnSpec]);
export type TurnSpec = z.infer<typeof TurnSpec>;

export const ModelScript = z
  .array(TurnSpec)
  .min(1)
  .refine((turns) => turns.some((t) => t.match === undefined), { message: 'a script needs at least one turn without `match`' });
export type ModelScript = z.infer<typeof ModelScript>;

/**
 * A script that is ModelScript's output already (a loaded suite's task: the
 * suite schema parsed it): a mount registers it as it is instead of parsing
 * it again for every session. Nothing in the mock changes a script.
 */
export interface ParsedScript {
  readonly parsed: ModelScript;
}

/** What a mount registers: a script to parse, or one parsed already. */
export type ScriptInput = z.input<typeof ModelScript> | ParsedScript;

const isParsed = (input: unknown): input is ParsedScript => typeof input === 'object' && input !== null && !Array.isArray(input) && Array.isArray((input as Partial<ParsedScript>).parsed);

/** The script a session runs: a parsed one as it is, anything else through ModelScript (which names what is wrong). */
export function scriptOf(input: ScriptInput): ModelScript {
  return isParsed(input) ? input.parsed : ModelScript.parse(input);
}

export function isRule(turn: TurnSpec): turn is RuleSpec {
  return 'rule' in turn;
}
