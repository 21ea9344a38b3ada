/**
 * Stage ⑦: run the tool body with an AbortSignal and its own timeout. The
 * outcome kind is decided by which signal fired (never by error text, 
 * docs/harness-rules.md#termination): the session's abort -> `aborted`, this call's timer -> `timeout`, a
 * throw -> `exception` (our bug), `isError` -> `tool_error` (tool ran and
 * reported a problem). The two error kinds are never merged (docs/harness-rules.md#failure-kinds).
 */
import { NEVER_CANCELLED } from '../schedule/bash-cascade.js';
import type { SessionStops } from './session-stops.js';
import type { Tool, ToolContext, ToolOutput } from '../tools/tool.js';
import type { CommandSandbox } from '../sandbox/sandbox.js';
import { isRuleOn } from '../permissions/rule-switches.js';
import { captureGitState, gitStateNote, neutraliseNewGitState, type GitState } from '../sandbox/git-state.js';
import { rewriteKeepsGitState } from '../sandbox/git-state-rewrite.js';

/** Who stopped a running call: the session (user abort) or the bash cascade (docs/harness-rules.md#cancel-sources). */
export type AbortCause = 'user' | 'cascade';

export type ExecOutcome =
  | { kind: 'ok'; output: ToolOutput }
  | { kind: 'tool_error'; output: ToolOutput }
  | { kind: 'exception'; error: unknown }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'aborted'; cause: AbortCause }
  /** The cascade fired before the body started (a pre-execution kind). */
  | { kind: 'cascade_skipped' };

export interface ExecOptions {
  workspace: string;
  sessionSignal: AbortSignal;
  /** This call's cascade signal (schedule/bash-cascade.ts): stops only this call, never the turn. */
  cascadeSignal?: AbortSignal;
  timeoutMs: number;
  /** The turn's session-abort hub (session-stops.ts) for `sessionSignal`; absent: a listener of this call's own. */
  sessionStops?: SessionStops;
  /** The session's OS sandbox, handed to the tool (bash runs its commands inside it). */
  sandbox?: CommandSandbox | null;
  /** The workspace's real path, resolved once for the session (session-root.ts); absent: resolved where needed. */
  realRoot?: string;
}

export async function executeTool(tool: Tool, input: unknown, options: ExecOptions): Promise<ExecOutcome> {
  const { sessionSignal, cascadeSignal } = options;
  if (sessionSignal.aborted) return { kind: 'aborted', cause: 'user' };
  if (cascadeSignal?.aborted) return { kind: 'cascade_skipped' };
  const control = new CallControl(options.workspace, sessionSignal, options.timeoutMs, options.sandbox ?? null, options.realRoot);
  // The cascade's signal for a call it cannot hit never fires: no listener needed.
  const cascade = cascadeSignal === NEVER_CANCELLED ? undefined : cascadeSignal;
  // A tool that must not be interrupted (interruptBehavior block) does not hear the user's abort once it runs.
  const interruptible = tool.interruptBehavior !== 'block';
  const stops = options.sessionStops?.signal === sessionSignal ? options.sessionStops : undefined;
  if (interruptible) {
    if (stops) stops.add(control);
    else sessionSignal.addEventListener('abort', control);
  }
  cascade?.addEventListener('abort', control);
  // Git state that runs programs, found by what git uses (git-state.ts): what a changing call adds is undone after it.
  const gitBefore = tool.readOnly || !isRuleOn('git_state') ? null : captureGitState(options.workspace, options.realRoot);
  try {
    const body = tool.execute(input, control);
    // A tool that ignores its signal must not hold the turn: race the body against the stop.
    const settled = await Promise.race([body.then(wrapOutput), control.stopped]);
    if (settled === 'stopped') {
      body.catch(ignore); // the abandoned body may still reject later
      return stoppedOutcome(options, control.reason);
    }
    if (control.reason !== null) return stoppedOutcome(options, control.reason);
    // A rewrite-only call in a workspace without any git directory cannot have made one (git-state-rewrite.ts).
    if (gitBefore !== null && tool.rewritesOnly === true && rewriteKeepsGitState(gitBefore, control.rewrites)) gitChecked.add(gitBefore);
    const output = withGitStateUndone(settled.output, options.workspace, gitBefore, options.realRoot);
    return output.isError ? { kind: 'tool_error', output } : { kind: 'ok', output };
  } catch (error) {
    if (control.reason !== null) return stoppedOutcome(options, control.reason);
    return { kind: 'exception', error };
  } finally {
    // Stopped, thrown or finished: what the call left is undone either way (the returned output carries the note).
    if (gitBefore !== null && !gitChecked.has(gitBefore)) neutraliseNewGitState(options.workspace, gitBefore, options.realRoot);
    control.disarm();
    if (interruptible) {
      if (stops) stops.delete(control);
      else sessionSignal.removeEventListener('abort', control);
    }
    cascade?.removeEventListener('abort', control);
  }
}

const gitChecked = new WeakSet<GitState>();

function withGitStateUndone(output: ToolOutput, workspace: string, before: GitState | null, realRoot: string | undefined): ToolOutput {
  if (before === null || gitChecked.has(before)) return output;
  gitChecked.add(before);
  const notes = neutraliseNewGitState(workspace, before, realRoot);
  if (notes.length === 0) return output;
  return { ...output, content: `${output.content}\n\n${gitStateNote(notes)}` };
}

type StopReason = 'timeout' | 'aborted' | 'cascade';

/**
 * The tool's context and the call's stop switch. The AbortSignal is made only
 * when the tool reads `signal`: making one costs several µs in Node 20 (an
 * EventTarget whose prototype is swapped), and the race above does not need
 * it. The FIRST stop is recorded here and is what the outcome is decided by;
 * a signal made later starts out aborted with that same reason, so a tool
 * sees exactly what it would have seen with an eager signal. It is also the
 * abort listener on the cascade signal and, without a SessionStops hub, on the
 * session signal (an object, not a closure per call). It owns the call's
 * timeout timer, which `progress()` restarts (MCP progress notifications).
 */
class CallControl implements ToolContext {
  reason: StopReason | null = null;
  /** Names a rewrite-only tool reported replacing (ToolContext.rewrote). */
  readonly rewrites: string[] = [];
  readonly stopped: Promise<'stopped'>;
  private controller: AbortController | null = null;
  private wake!: (value: 'stopped') => void;
  private timer: NodeJS.Timeout | null;

  constructor(
    readonly workspace: string,
    private readonly session: AbortSignal,
    private readonly timeoutMs: number,
    readonly sandbox: CommandSandbox | null,
    readonly realRoot: string | undefined,
  ) {
    this.stopped = new Promise((resolve) => (this.wake = resolve));
    this.timer = setTimeout(stopOnTimeout, timeoutMs, this);
  }

  rewrote(name: string): void {
    this.rewrites.push(name);
  }

  /** An MCP progress notification: the call's own timeout starts again (the first stop still wins). */
  progress(): void {
    if (this.timer === null || this.reason !== null) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(stopOnTimeout, this.timeoutMs, this);
  }

  disarm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  get signal(): AbortSignal {
    if (this.controller === null) {
      this.controller = new AbortController();
      if (this.reason !== null) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** `signal.aborted`, without making the signal. */
  isStopped(): boolean {
    return this.reason !== null;
  }

  stop(reason: StopReason): void {
    if (this.reason !== null) return; // the first stop wins
    this.reason = reason;
    this.controller?.abort(reason);
    this.wake('stopped');
  }

  handleEvent(event: Event): void {
    this.stop(event.target === this.session ? 'aborted' : 'cascade');
  }
}

function stopOnTimeout(control: CallControl): void {
  control.stop('timeout');
}

function wrapOutput(output: ToolOutput): { output: ToolOutput } {
  return { output };
}

function ignore(): void {}

function stoppedOutcome(options: ExecOptions, reason: StopReason | null): ExecOutcome {
  // The first stop wins and its reason is our own constant, so the cause is which signal fired first.
  if (reason === 'timeout') return { kind: 'timeout', timeoutMs: options.timeoutMs };
  return { kind: 'aborted', cause: reason === 'cascade' ? 'cascade' : 'user' };
}
