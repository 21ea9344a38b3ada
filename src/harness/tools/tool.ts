/**
 * The Tool interface (docs/harness-rules.md#tool-definitions). One zod schema feeds both run-time validation
 * and the JSON Schema sent to the model (registry.definitions(), the only path).
 */
import type { z } from 'zod';
import type { JsonSchema } from '../../providers/types.js';
import type { CommandSandbox } from '../sandbox/command-sandbox.js';

export interface ToolContext {
  /** Absolute path of the task's sandbox workspace. Tools never touch anything outside it. */
  workspace: string;
  /** Aborted on user abort, cascade or this call's own timeout. */
  signal: AbortSignal;
  /**
   * Whether `signal` is aborted, without making it: the pipeline makes the signal only when a tool reads it
   * (pipeline/execute.ts), and a check before the work needs none. Absent: `signal.aborted` (callStopped).
   */
  isStopped?(): boolean;
  /**
   * The call is still making progress (an MCP `notifications/progress`): its
   * timeout starts again from now. Absent outside the pipeline.
   */
  progress?(): void;
  /** The session's OS sandbox for commands (bash runs inside it); absent = none. */
  sandbox?: CommandSandbox | null;
  /**
   * The workspace's real path, resolved once for the session (pipeline/session-root.ts); absent: a tool resolves
   * it itself. Only ever a start for O_NOFOLLOW walks and the bound paths are checked against.
   */
  realRoot?: string;
  /**
   * A `rewritesOnly` tool names each existing file whose content it is about to replace (the entry's own name in
   * its directory, after links were resolved). Absent outside the pipeline.
   */
  rewrote?(name: string): void;
}

/** `signal.aborted` for a tool that only asks whether its call was stopped (see isStopped). */
export function callStopped(context: ToolContext): boolean {
  return context.isStopped !== undefined ? context.isStopped() : context.signal.aborted;
}

/** What a tool returns. `isError` marks a tool-reported error (`tool_error`), e.g. a failing command. */
export interface ToolOutput {
  content: string;
  isError?: boolean;
  /** Structured code for a tool-reported error (`exit_1`, `ENOENT`, `not_unique`), never message text. */
  errorCode?: string;
  /** The tool found nothing to report; `content` is its explicit empty-result text (docs/harness-rules.md#empty-output). */
  empty?: boolean;
}

/** `full`: show the output; `summary`: a one-line header instead of the body; `hidden`: no card at all. */
export type ResultDisplayMode = 'full' | 'summary' | 'hidden';

// `any` default: a registry holds tools of many input types; each tool is typed where it is defined.
export interface Tool<I = any> {
  readonly name: string;
  /** What the tool is and when to choose it: 1-3 sentences, no dynamic content (docs/harness-rules.md#descriptions, docs/harness-rules.md#stable-prefix). */
  readonly description: string;
  /** How to use it well: boundaries, preconditions. Sent after the description, kept separate in code. */
  readonly usage?: string;
  /**
   * A curated capability phrase for tool_search only (never sent): the words a
   * model would search with, weighted above the description, which is written
   * for the model that already has the tool.
   */
  readonly searchHint?: string;
  readonly inputSchema: z.ZodType<I>;
  /** True when the tool never changes anything (drives permissions and scheduling). */
  readonly readOnly: boolean;
  /** Call-level concurrency safety (docs/harness-rules.md#call-level-concurrency). Throwing means unsafe (fail closed). */
  isConcurrencySafe(input: I): boolean;
  /**
   * What a user abort does to a running call: `cancel` (default) stops it;
   * `block` lets it run to the end (its own timeout still applies), for a tool
   * that stopped midway would leave things half done. A call not started yet
   * is not started either way.
   */
  readonly interruptBehavior?: 'cancel' | 'block';
  /** Per-call timeout in ms (default from the harness config). */
  readonly timeoutMs?: number;
  /**
   * The tool only ever replaces the content of existing files (never makes, removes or renames another entry) and
   * reports each through `context.rewrote`: the git-state walk after it may then be skipped (sandbox/git-state-rewrite.ts).
   */
  readonly rewritesOnly?: boolean;
  /**
   * Most descriptors one call holds at once across an await (default 4: a directory, a file, a temp file, one
   * spare). A call takes that many from the process's descriptor budget before it starts (its snapshot included)
   * and waits while the budget is spent (safe-fs/fd-budget.ts, pipeline/call-descriptors.ts).
   */
  readonly descriptors?: number;
  /**
   * Every descriptor the call opens in this process is opened before its one committing step (a rename, a child
   * started): an EMFILE/ENFILE it throws means nothing changed, and the call is run again once descriptors were
   * given back instead of failing. Read-only tools are treated so always.
   */
  readonly opensBeforeEffects?: boolean;
  /** Files this call reads or writes, for the permission chain's path guard (paths as the model gave them). */
  accessedPaths?(input: I): readonly { path: string; access: 'read' | 'write' }[];
  /** Result size limit in characters before truncate+spill (docs/harness-rules.md#truncate-and-spill); Infinity = never spilled. Default per tool name. */
  readonly maxResultChars?: number;
  /**
   * Result size limit in estimated tokens (results/token-estimate.ts), checked
   * before the character limit: MCP tools (docs/harness-rules.md#mcp-limits), whose output can be
   * English, CJK, base64 or images at very different tokens per character.
   */
  readonly maxResultTokens?: number;
  /**
   * The JSON Schema sent to the model, for tools whose schema comes from
   * outside as JSON Schema (MCP servers). Absent: derived from `inputSchema`.
   * `inputSchema` still validates the input.
   */
  readonly jsonSchema?: JsonSchema;
  /** How the user-facing side shows a successful result (docs/harness-rules.md#model-and-display-sides); errors are always shown. */
  readonly resultDisplayMode?: ResultDisplayMode | ((input: I) => ResultDisplayMode);
  /** Text sent to the model when the output is empty (docs/harness-rules.md#empty-output). */
  readonly emptyText?: string;
  execute(input: I, context: ToolContext): Promise<ToolOutput>;
}
