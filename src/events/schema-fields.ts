/**
 * The fields the event schemas share (schemas.ts): the envelope every line
 * carries, the session, turn and tool scopes, tokens and stage times, and the
 * small builders the catalog is written with.
 */
import { z } from 'zod';
import { CONTRACT_VERSION, ToolLabel } from './labels.js';

export const int = () => z.number().int();
export const nonNeg = () => z.number().int().nonnegative();
export const ms = () => z.number().nonnegative();
export const id = () => z.string().min(1).max(128);
/** A short free-text field (not a label): capped so a trace line stays small. */
export const text = (max: number) => z.string().max(max);

/** Fields on every line. `session_id` is absent on run-level events. */
export const envelope = {
  /** Contract version; a reader refuses a line of a version it does not know. */
  v: z.literal(CONTRACT_VERSION),
  /** Epoch ms. `null` only in an imported trace whose source records no time (τ-bench trajectories). */
  ts: nonNeg().nullable(),
  /** Per-writer line counter from 0: a gap is a lost line, and it orders lines written in the same millisecond. */
  seq: nonNeg(),
  /** One run: a `faultline run`, a lab run, an import, or a user harness's process. */
  run_id: id(),
};
export const sessionScoped = {
  ...envelope,
  /** One session: one task (and repeat) through the harness, from session_start to session_end. */
  session_id: id(),
  /** The suite task the session ran (an importer uses the source's own task or conversation id). */
  task_id: id(),
};
export const turnScoped = {
  ...sessionScoped,
  /** The model turn within the session (faultline's harness counts from 1). */
  turn: nonNeg(),
};
export const toolScoped = {
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
export const unknown = <T extends z.ZodType>(schema: T) => schema.nullable();

/**
 * A call's `duration_ms` split in two, so a slow PreToolUse hook or a
 * permission prompt does not read as a slow tool: `execution_ms` is the tool
 * body alone (the execute stage; what per-tool latency is about),
 * `pipeline_ms` the rest of `duration_ms` (hooks, permission, validation,
 * truncation/spill). Absent: not recorded (a call refused before it ran has
 * no execution, other producers may not split it).
 */
export const stageTimes = {
  execution_ms: ms().optional(),
  pipeline_ms: ms().optional(),
};

export const tokens = {
  input_tokens: unknown(nonNeg()),
  output_tokens: unknown(nonNeg()),
  cache_read_tokens: unknown(nonNeg()),
  cache_write_tokens: unknown(nonNeg()),
};
