/**
 * The PostToolUseFailure hook (Claude Code's event of that name): after a
 * tool ran and failed. PostToolUse sees successes only, so without it a
 * user's audit or recovery hook never hears of a timeout or a tool error.
 * Observation plus context: an `additionalContext` answer is added to the
 * error text the model sees. Like PostToolUse it fails open: a hook that
 * throws, times out or answers garbage leaves the error text as it was
 * (effect `failed`), since the tool already ran and the model must hear what
 * it did.
 */
import { callHook, DEFAULT_HOOK_TIMEOUT_MS } from '../hooks/call-hook.js';
import { copyForHook } from '../hooks/copy-input.js';
import type { PostToolUseFailureEvent } from '../hooks/types.js';
import type { PipelineCall, StageFailure } from './call.js';
import { emitPostHook, type PostHookDeps } from './post-tool-hook.js';

const MAX_CONTEXT_CHARS = 10_000;

export async function postToolFailureHookStage(call: PipelineCall, failure: StageFailure, deps: PostHookDeps): Promise<StageFailure> {
  const hook = deps.hooks.postToolUseFailure;
  if (!hook) return failure;
  const started = deps.now();
  const event: PostToolUseFailureEvent = {
    tool: call.block.name,
    toolUseId: call.block.id,
    turn: call.turn,
    input: copyForHook(call.input),
    error: failure.message,
    failureKind: failure.kind as PostToolUseFailureEvent['failureKind'],
  };
  const ran = await callHook(() => hook.call(deps.hooks, event), deps.hooks.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
  const value = ran.status === 'ok' ? ran.value : undefined;
  const valid = ran.status === 'ok' && (value == null || (typeof value === 'object' && (value.additionalContext === undefined || typeof value.additionalContext === 'string')));
  const context = valid && value && typeof value.additionalContext === 'string' ? value.additionalContext.trim().slice(0, MAX_CONTEXT_CHARS) : '';
  emitPostHook(call, deps, 'post_tool_use_failure', !valid ? 'failed' : context ? 'output_modified' : 'none', started);
  return context ? { ...failure, message: `${failure.message}\n${context}` } : failure;
}
