/**
 * The hook contract (docs/harness-rules.md#hooks): user code the harness calls at two fixed
 * points of the pipeline. A hook module exports `preToolUse` and/or
 * `postToolUse` (or a default export holding them). Hooks see the call's
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

type MaybePromise<T> = T | Promise<T>;

export interface HookSet {
  preToolUse?(event: PreToolUseEvent): MaybePromise<PreToolUseResult | void | undefined>;
  postToolUse?(event: PostToolUseEvent): MaybePromise<PostToolUseResult | void | undefined>;
  /** Per-hook time limit in ms (default 5,000). */
  timeoutMs?: number;
}
