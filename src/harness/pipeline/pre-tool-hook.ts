/**
 * Stage ③: the PreToolUse hook, before permission (docs/harness-rules.md#pipeline-order: the hook must
 * be able to give a decision or make the input acceptable before anyone is
 * asked). It may block, rewrite the input, or give a permission decision.
 *
 * A hook that throws, times out or returns something malformed BLOCKS the
 * call (`hook_blocked`, error_code hook_error / hook_timeout / hook_invalid).
 * Why fail closed: PreToolUse hooks are where users put policy (redaction,
 * "never touch prod"); passing a call its policy hook could not judge turns a
 * broken policy into a silent bypass. A crash of user code is never a crash
 * of the harness: the turn goes on and the model is told what happened.
 */
import type { SessionEmitter } from '../../events/emitter.js';
import { callHook, DEFAULT_HOOK_TIMEOUT_MS } from '../hooks/call-hook.js';
import { copyForHook } from '../hooks/copy-input.js';
import { deepEqual } from '../hooks/deep-equal.js';
import type { HookSet, PreToolUseResult } from '../hooks/types.js';
import type { HookDecision } from '../permissions/types.js';
import type { PipelineCall, StageResult } from './call.js';
import type { AttemptHookMemo, PreHookEffect, PreHookRun, PreHookVerdict } from './pre-hook-memo.js';

export interface PreHookDeps {
  hooks: HookSet;
  emitter: SessionEmitter;
  label: string;
  workspace: string;
  now: () => number;
  /** Streaming: the verdicts of runs in dropped attempts of this turn (pre-hook-memo.ts). */
  memo?: AttemptHookMemo;
}

export type { PreHookVerdict } from './pre-hook-memo.js';

const DECISIONS = new Set(['allow', 'ask', 'deny']);

export async function preToolHookStage(call: PipelineCall, input: unknown, deps: PreHookDeps): Promise<StageResult<PreHookVerdict>> {
  if (!deps.hooks.preToolUse) return { ok: true, value: { input, modified: false, decision: null } };
  // The same call already judged in a dropped streaming attempt: its verdict, not a second run.
  const earlier = deps.memo?.take(call.block.name, input);
  if (earlier) {
    const run = await earlier;
    emitHook(call, deps, run.effect, run.durationMs);
    return run.result;
  }
  const started = deps.now();
  const running = (async (): Promise<PreHookRun> => {
    const effects: { effect: PreHookEffect } = { effect: 'none' };
    const result = await runHook(call, input, deps, effects);
    return { result, effect: effects.effect, durationMs: elapsed(deps, started), turn: call.turn, tool: deps.label, toolUseId: call.block.id };
  })();
  deps.memo?.record(call.block.name, input, running);
  const run = await running;
  emitHook(call, deps, run.effect, run.durationMs);
  return run.result;
}

async function runHook(call: PipelineCall, input: unknown, deps: PreHookDeps, out: { effect: PreHookEffect }): Promise<StageResult<PreHookVerdict>> {
  const hook = deps.hooks.preToolUse!;
  const event = { tool: call.block.name, toolUseId: call.block.id, turn: call.turn, input: copyForHook(input), workspace: deps.workspace };
  const ran = await callHook(() => hook.call(deps.hooks, event), deps.hooks.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);

  const value: unknown = ran.status === 'ok' ? ran.value : undefined;
  const answer = isResult(value) ? (value ?? {}) : null;
  if (ran.status !== 'ok' || answer === null) {
    out.effect = 'blocked';
    const what = ran.status === 'timed_out' ? 'timed out' : ran.status === 'threw' ? 'failed with an error' : 'returned an invalid answer';
    return {
      ok: false,
      failure: {
        kind: 'hook_blocked',
        errorCode: ran.status === 'timed_out' ? 'hook_timeout' : ran.status === 'threw' ? 'hook_error' : 'hook_invalid',
        message: `The ${call.block.name} call was not run: the PreToolUse hook that checks it ${what}, and an unchecked call is not run. Retrying will likely fail the same way; continue without this call or tell the user the hook is failing.`,
      },
    };
  }
  const result: PreToolUseResult = answer;
  if (typeof result.block === 'string') {
    out.effect = 'blocked';
    const why = result.block.trim() || 'no reason given';
    return { ok: false, failure: { kind: 'hook_blocked', errorCode: 'hook_block', message: `A PreToolUse hook blocked this ${call.block.name} call: ${why}. Do not retry it unchanged.` } };
  }
  const next = 'updatedInput' in result && result.updatedInput !== undefined ? result.updatedInput : input;
  const modified = next !== input && !deepEqual(input, next);
  const decision = result.decision && DECISIONS.has(result.decision) ? { decision: result.decision, ...(result.reason ? { reason: result.reason } : {}) } : null;
  out.effect = modified ? 'input_modified' : decision ? 'decision' : 'none';
  return { ok: true, value: { input: next, modified, decision } };
}

function elapsed(deps: PreHookDeps, started: number): number {
  return Math.max(0, Math.round((deps.now() - started) * 1000) / 1000);
}

function emitHook(call: PipelineCall, deps: PreHookDeps, effect: PreHookEffect, durationMs: number): void {
  deps.emitter.emit('hook', { turn: call.turn, tool: deps.label, tool_use_id: call.block.id, hook: 'pre_tool_use', effect, duration_ms: durationMs });
}

/** The event of a run whose call was dropped with its attempt and never came again (pre-hook-memo.ts). */
export function emitUnclaimedHook(emitter: SessionEmitter, run: PreHookRun): void {
  emitter.emit('hook', { turn: run.turn, tool: run.tool, tool_use_id: run.toolUseId, hook: 'pre_tool_use', effect: run.effect, duration_ms: run.durationMs });
}

function isResult(value: unknown): value is PreToolUseResult | undefined | null {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object' || Array.isArray(value)) return false;
  const r = value as Record<string, unknown>;
  if (r.block !== undefined && typeof r.block !== 'string') return false;
  if (r.decision !== undefined && !DECISIONS.has(String(r.decision))) return false;
  return true;
}
