/**
 * Stage ⑨: the PostToolUse hook may rewrite a successful result. Built-in
 * tools' hooks see the truncated text (what the model will see); MCP tools'
 * hooks see the raw, untruncated output (docs/harness-rules.md#pipeline-order: a redaction hook must
 * see the part a truncation would hide): for them this stage runs before
 * truncate/spill, so the spilled file holds the hook's rewrite, not the raw.
 *
 * A hook that throws, times out or returns a non-string PASSES: the output
 * stays as the tool produced it (effect `failed`). Why not block: the tool
 * already ran and its effects are real; withholding the result would leave
 * the model believing nothing happened and retrying a mutation.
 */
import type { SessionEmitter } from '../../events/emitter.js';
import { callHook, DEFAULT_HOOK_TIMEOUT_MS } from '../hooks/call-hook.js';
import { copyForHook } from '../hooks/copy-input.js';
import type { HookSet } from '../hooks/types.js';
import type { PipelineCall } from './call.js';

export interface PostHookDeps {
  hooks: HookSet;
  emitter: SessionEmitter;
  label: string;
  now: () => number;
}

export async function postToolHookStage(
  call: PipelineCall,
  output: string,
  source: 'builtin' | 'mcp',
  deps: PostHookDeps,
): Promise<{ output: string; modified: boolean }> {
  const hook = deps.hooks.postToolUse;
  if (!hook) return { output, modified: false };
  const started = deps.now();
  const event = { tool: call.block.name, toolUseId: call.block.id, turn: call.turn, input: copyForHook(call.input), output, isError: false, source };
  const ran = await callHook(() => hook.call(deps.hooks, event), deps.hooks.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
  const value = ran.status === 'ok' ? ran.value : undefined;
  const valid = ran.status === 'ok' && (value == null || (typeof value === 'object' && (value.output === undefined || typeof value.output === 'string')));
  const next = valid && value && typeof value.output === 'string' ? value.output : output;
  const modified = next !== output;
  emitPostHook(call, deps, 'post_tool_use', !valid ? 'failed' : modified ? 'output_modified' : 'none', started);
  return { output: next, modified };
}

/** The `hook` event of one run of a post hook (success or failure side), timed from `started`. */
export function emitPostHook(call: PipelineCall, deps: PostHookDeps, hook: 'post_tool_use' | 'post_tool_use_failure', effect: 'failed' | 'output_modified' | 'none', started: number): void {
  deps.emitter.emit('hook', { turn: call.turn, tool: deps.label, tool_use_id: call.block.id, hook, effect, duration_ms: Math.max(0, Math.round((deps.now() - started) * 1000) / 1000) });
}
