/**
 * One call through the per-call stages, in the order of docs/harness-rules.md#pipeline-order except
 * for the snapshot: lookup -> PreToolUse hook -> permission -> validation ->
 * defenses (beforeToolCall) -> (schedule: the caller) -> snapshot -> execute -> truncate/spill -> PostToolUse hook ->
 * serialize -> telemetry (settlement, the single exit). Every exit goes
 * through `settle`, which adds the hook notice when the input was really
 * changed. The batch and streaming schedulers both run calls through here,
 * so hooks fire once per call whatever the scheduling. The snapshot comes
 * after the policy, on the input that will run: a refused call must not make
 * the harness read anything on its behalf (snapshot.ts).
 */
import type { SessionEmitter } from '../../events/emitter.js';
import type { DefenseCounter } from '../defenses/meter.js';
import { defenseStage, type CallGuard } from './defense-stage.js';
import type { BatchPathMemo } from './batch-path-memo.js';
import type { SessionStops } from './session-stops.js';
import type { PipelineCall, StageFailure, StageResult } from './call.js';
import { executeTool, type ExecOptions, type ExecOutcome } from './execute.js';
import { callLease, runWithinShortage } from './call-descriptors.js';
import { withHookNotice } from './hook-notice.js';
import { lookupTool, type ToolLookup } from './lookup.js';
import { permissionStage } from './permission.js';
import { postToolHookStage } from './post-tool-hook.js';
import { postToolFailureHookStage } from './post-tool-failure-hook.js';
import { preToolHookStage } from './pre-tool-hook.js';
import type { AttemptHookMemo } from './pre-hook-memo.js';
import { executionFailure, serializeSuccess, type SerializedSuccess } from './serialize.js';
import type { PipelineServices } from './services.js';
import type { Settlement } from './settlement.js';
import { snapshotStage } from './snapshot.js';
import { truncateSpillStage } from './truncate-spill.js';
import { validateInput } from './validate-input.js';
import { modelInput } from './model-input.js';
import { isCallConcurrencySafe, type InputParse } from '../schedule/concurrency-safety.js';
import { sessionRealRoot } from './session-root.js';
import { noteRealRoot } from '../permissions/path-guard.js';

export interface CallContext {
  registry: ToolLookup;
  emitter: SessionEmitter;
  workspace: string;
  signal: AbortSignal;
  defaultTimeoutMs: number;
  now: () => number;
  settlement: Settlement;
  services: PipelineServices;
  defenses?: DefenseCounter;
  /** The hook defenses' beforeToolCall (defenses/runtime.ts); absent: none. */
  guard?: CallGuard;
  label: (name: string) => string;
  /** The path guard's directory memo for this turn's batches (see batch-path-memo.ts). */
  pathMemo?: BatchPathMemo;
  /** One session-abort listener for the turn's running calls (see session-stops.ts). */
  sessionStops?: SessionStops;
  /** Streaming: PreToolUse verdicts of this turn's dropped attempts (see pre-hook-memo.ts). */
  hookMemo?: AttemptHookMemo;
}

export async function runCallStages(call: PipelineCall, cascade: AbortSignal, ctx: CallContext): Promise<void> {
  const { services } = ctx;
  const found = lookupTool(ctx.registry, call.block.name);
  if (!found.ok) return settle(call, ctx, { failure: found.failure });
  if (services.prepareWorkspace) await services.prepareWorkspace();
  // Resolved once for the session, after prepareWorkspace made it exist; the path guard takes the same answer
  // for the workspace root rather than resolving it again (path-guard.ts noteRealRoot).
  const realRoot = sessionRealRoot(services, ctx.workspace);
  const guardConfig = services.permissions?.config;
  if (realRoot !== undefined && guardConfig !== undefined && guardConfig.workspaceRoot === ctx.workspace && guardConfig.fs === undefined) noteRealRoot(ctx.workspace, realRoot);
  const tool = (call.tool = found.value);
  const label = ctx.label(tool.name);
  // A strict-mode `null` in an optional field means "not provided": read it so before the hook, the
  // permission chain or validation judges the input, or the model is told the opposite of its schema.
  // Admission read and parsed the same input for the scheduler (run-turn-calls.ts): taken as it is, not redone.
  const admitted = call.admitted?.tool === tool ? call.admitted : undefined;
  let input: unknown = admitted ? admitted.input : modelInput(tool, call.block);
  let valid: StageResult<unknown> | undefined;

  // Arguments that never parsed cannot be judged by a hook or the chain: validation answers them.
  if (!call.block.inputError) {
    let hookDecision = null;
    if (services.hooks) {
      const pre = await preToolHookStage(call, input, { hooks: services.hooks, emitter: ctx.emitter, label, workspace: ctx.workspace, now: ctx.now, memo: ctx.hookMemo });
      if (!pre.ok) return settle(call, ctx, { failure: pre.failure });
      input = pre.value.input;
      call.inputModifiedByHook = pre.value.modified;
      hookDecision = pre.value.decision;
    }
    call.candidateInput = input;
    // A call whose input does not parse is not judged (no prompt spent on a call that cannot run); validation answers it.
    if (services.permissions) {
      const parsed = admittedParse(admitted, input) ?? tool.inputSchema.safeParse(input);
      if (parsed.success) {
        const allowed = await permissionStage(call, tool, parsed.data, hookDecision, { permissions: services.permissions, emitter: ctx.emitter, defenses: ctx.defenses, label, pathMemo: ctx.pathMemo });
        if (!allowed.ok) return settle(call, ctx, { failure: allowed.failure });
        valid = { ok: true, value: parsed.data }; // the same parse validation would do
      }
    }
  }
  valid ??= validateInput(tool, call.block, input, admittedParse(admitted, input));
  if (!valid.ok) return settle(call, ctx, { failure: valid.failure });
  call.input = valid.value;
  if (ctx.guard) {
    const guarded = await defenseStage(call, valid.value, ctx.guard, label, services.permissions);
    if (!guarded.ok) return settle(call, ctx, { failure: guarded.failure });
  }
  // Scheduled as concurrency-safe on the model's input, but a hook rewrote it into a call that is not
  // (e.g. `ls` into `rm`): it must not run beside the others, so it waits until it can run alone.
  if (call.inputModifiedByHook && call.concurrencySafe && call.runAlone && !isCallConcurrencySafe(tool, valid.value)) await call.runAlone();

  // The descriptors the snapshot and the body hold, from the process's budget (call-descriptors.ts): waits while it is spent.
  const asked = callLease(tool);
  let lease = asked instanceof Promise ? await asked : asked;
  let outcome: ExecOutcome;
  let executeStarted: number;
  try {
    if (services.snapshotDir) await snapshotStage(call, tool, valid.value, ctx.workspace, services.snapshotDir, { emitter: ctx.emitter, label }, services.snapshotMemory, realRoot);
    executeStarted = ctx.now();
    const options: ExecOptions = {
      workspace: ctx.workspace,
      sessionSignal: ctx.signal,
      sessionStops: ctx.sessionStops,
      cascadeSignal: cascade,
      timeoutMs: tool.timeoutMs ?? ctx.defaultTimeoutMs,
      sandbox: services.sandbox,
      realRoot,
    };
    const ran = await runWithinShortage(tool, lease, () => executeTool(tool, valid.value, options), ctx.signal);
    outcome = ran.outcome;
    lease = ran.lease;
  } finally {
    lease.release();
  }
  // The tool's own time, apart from hooks and permission (a slow hook must not read as a slow tool).
  call.executionMs = Math.max(0, Math.round((ctx.now() - executeStarted) * 1000) / 1000);
  if (outcome.kind !== 'ok') {
    const failure = executionFailure(tool, outcome);
    if (!services.hooks?.postToolUseFailure) return settle(call, ctx, { failure });
    const hookDeps = { hooks: services.hooks, emitter: ctx.emitter, label, now: ctx.now };
    return settle(call, ctx, { failure: await postToolFailureHookStage(call, failure, hookDeps) });
  }
  // What the tool produced; an empty output is '' here, not the words that tell the model it was empty.
  call.rawOutput = outcome.output.empty ? '' : outcome.output.content;

  const source = tool.name.startsWith('mcp__') ? 'mcp' : 'builtin';
  const spill = { workspace: ctx.workspace, spillDir: services.spillDir ?? null, defenses: ctx.defenses, label };
  const post = services.hooks?.postToolUse ? { hooks: services.hooks, emitter: ctx.emitter, label, now: ctx.now } : null;
  let limited;
  if (post && source === 'mcp') {
    // MCP: the hook sees the raw output BEFORE anything is cut or spilled, so the spill holds its rewrite.
    const hooked = await postToolHookStage(call, outcome.output.content, source, post);
    limited = await truncateSpillStage(call, tool, hooked.output, spill);
  } else {
    limited = await truncateSpillStage(call, tool, outcome.output.content, spill);
    // Built-ins: the hook sees exactly what the model will see.
    if (post) limited = { content: (await postToolHookStage(call, limited.content, source, post)).output, truncated: limited.truncated, spilled: limited.spilled };
  }
  const out = serializeSuccess(tool, limited.content, outcome.output.empty);
  // Literals rather than `{ ...out, more }` here and in settle: a spread followed by more properties is a slow path in V8.
  settle(call, ctx, {
    success: { content: out.content, rawBytes: Buffer.byteLength(outcome.output.content), outputBytes: out.outputBytes, empty: out.empty, truncated: limited.truncated, spilled: limited.spilled },
  });
}

/** The schema's parse of `input` when admission made it; a hook's rewrite (another object) is parsed afresh. */
function admittedParse(admitted: PipelineCall['admitted'], input: unknown): InputParse | undefined {
  return admitted !== undefined && admitted.parsed !== null && input === admitted.input ? admitted.parsed : undefined;
}

/** The only way this file ends a call: the hook notice, then the settlement exit. */
function settle(call: PipelineCall, ctx: CallContext, result: { success: SerializedSuccess } | { failure: StageFailure }): void {
  const modified = call.inputModifiedByHook;
  if ('success' in result) {
    const s = result.success;
    const content = withHookNotice(s.content, modified);
    const outputBytes = content === s.content ? s.outputBytes : Buffer.byteLength(content);
    ctx.settlement.succeed(call, { content, rawBytes: s.rawBytes, outputBytes, empty: s.empty, truncated: s.truncated, spilled: s.spilled });
  } else {
    const f = result.failure;
    ctx.settlement.fail(call, { kind: f.kind, errorCode: f.errorCode, message: withHookNotice(f.message, modified) });
  }
}
