/**
 * Stage ⑦: run the tool body with an AbortSignal and its own timeout. The
 * outcome kind is decided by which signal fired (never by error text, seed
 * §4.4): the session's abort -> `aborted`, this call's timer -> `timeout`, a
 * throw -> `exception` (our bug), `isError` -> `tool_error` (tool ran and
 * reported a problem). The two error kinds are never merged (seed §14.3).
 */
import type { Tool, ToolOutput } from '../tools/tool.js';

/** Who stopped a running call: the session (user abort) or the bash cascade (seed §6.7). */
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
}

export async function executeTool(tool: Tool, input: unknown, options: ExecOptions): Promise<ExecOutcome> {
  if (options.sessionSignal.aborted) return { kind: 'aborted', cause: 'user' };
  if (options.cascadeSignal?.aborted) return { kind: 'cascade_skipped' };
  const own = new AbortController();
  const timer = setTimeout(() => own.abort('timeout'), options.timeoutMs);
  const onSessionAbort = () => own.abort('aborted');
  options.sessionSignal.addEventListener('abort', onSessionAbort, { once: true });
  const onCascade = () => own.abort('cascade');
  options.cascadeSignal?.addEventListener('abort', onCascade, { once: true });
  // A tool that ignores its signal must not hold the turn: race the body against the signal.
  const stopped = new Promise<'stopped'>((resolve) => own.signal.addEventListener('abort', () => resolve('stopped'), { once: true }));
  try {
    const body = tool.execute(input, { workspace: options.workspace, signal: own.signal });
    const settled = await Promise.race([body.then((output) => ({ output })), stopped]);
    if (settled === 'stopped') {
      body.catch(() => undefined); // the abandoned body may still reject later
      return stoppedOutcome(options, own.signal);
    }
    if (own.signal.aborted) return stoppedOutcome(options, own.signal);
    return settled.output.isError ? { kind: 'tool_error', output: settled.output } : { kind: 'ok', output: settled.output };
  } catch (error) {
    if (own.signal.aborted) return stoppedOutcome(options, own.signal);
    return { kind: 'exception', error };
  } finally {
    clearTimeout(timer);
    options.sessionSignal.removeEventListener('abort', onSessionAbort);
    options.cascadeSignal?.removeEventListener('abort', onCascade);
  }
}

function stoppedOutcome(options: ExecOptions, signal: AbortSignal): ExecOutcome {
  // The first abort wins and its reason is our own constant, so the cause is which signal fired first.
  if (signal.reason === 'timeout') return { kind: 'timeout', timeoutMs: options.timeoutMs };
  return { kind: 'aborted', cause: signal.reason === 'cascade' ? 'cascade' : 'user' };
}
