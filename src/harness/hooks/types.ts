/**
 * The hook contract (docs/harness-rules.md#hooks): user code the harness calls at fixed points
 * of the pipeline. A hook module exports `preToolUse`, `postToolUse` and/or
 * `postToolUseFailure` (Claude Code's PreToolUse / PostToolUse /
 * PostToolUseFailure events), or a default export holding them. Hooks see the call's
 * input and output, so they are trusted user code, loaded from the suite.
 */

export interface PreToolUseEvent {
  readonly tool: string;
  readonly toolUseId: string;
  readonly turn: number;
  /** The input as the model sent it (a structured clone: mutating it changes nothing). */
  readonly input: unknown;
  readonly workspace: string;
}

/**
 * What a PreToolUse hook may answer (all optional; `undefined` = no opinion):
 * - `block`: refuse the call; the text is shown to the model (`hook_blocked`).
 * - `updatedInput`: run with this input instead. The model is told its call
 *   ran with modified arguments only when the value really differs.
 * - `decision`: a permission decision the permission stage honours (below its
 *   safety steps: a hook cannot allow a hard-blocked command).
 */
export interface PreToolUseResult {
  block?: string;
  updatedInput?: unknown;
  decision?: 'allow' | 'ask' | 'deny';
  reason?: string;
}

export interface PostToolUseEvent {
  readonly tool: string;
  readonly toolUseId: string;
  readonly turn: number;
  readonly input: unknown;
  /** Built-ins: the truncated text the model will see. MCP tools: the raw, untruncated output (docs/harness-rules.md#pipeline-order). */
  readonly output: string;
  readonly isError: boolean;
  readonly source: 'builtin' | 'mcp';
}

/** `output` replaces the text the model sees. */
export interface PostToolUseResult {
  output?: string;
}

/**
 * After a tool ran and failed (timeout, abort, its own error, an exception):
 * PostToolUse sees successes only, so without this a failure is invisible to
 * the user's hooks. Not called for calls refused before they ran (not found,
 * blocked, denied, invalid input): the tool did not run.
 */
export interface PostToolUseFailureEvent {
  readonly tool: string;
  readonly toolUseId: string;
  readonly turn: number;
  readonly input: unknown;
  /** The error text the model will see. */
  readonly error: string;
  readonly failureKind: 'timeout' | 'aborted' | 'exception' | 'tool_error';
}

/** `additionalContext` is added to the error text the model sees (e.g. how to fix it here). */
export interface PostToolUseFailureResult {
  additionalContext?: string;
}

type MaybePromise<T> = T | Promise<T>;

export interface HookSet {
  preToolUse?(event: PreToolUseEvent): MaybePromise<PreToolUseResult | void | undefined>;
  postToolUse?(event: PostToolUseEvent): MaybePromise<PostToolUseResult | void | undefined>;
  postToolUseFailure?(event: PostToolUseFailureEvent): MaybePromise<PostToolUseFailureResult | void | undefined>;
  /** Per-hook time limit in ms (default 5,000). */
  timeoutMs?: number;
}
