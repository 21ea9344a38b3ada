/**
 * Stage ④: the permission decision (docs/harness-rules.md#permissions). The chain (src/harness/
 * permissions/) decides; this stage is where its answer becomes events:
 * one `permission_decision` per judged call with the deciding source, a
 * `defense_trigger` when a defense step decided, and the denial fuse's count.
 *
 * This function is the fuse's single convergence point (docs/harness-rules.md#denial-fuse): every
 * final answer — hard deny, headless ask turned deny, a human refusing — is
 * recorded here exactly once, so `denial_fuse` fires once per trip, not once
 * per check. A PreToolUse hook's decision is passed into the chain, which
 * ranks it below the safety steps (a hook cannot allow `rm -rf /`).
 */
import type { SessionEmitter } from '../../events/emitter.js';
import type { DefenseCounter } from '../defenses/meter.js';
import { checkPermission } from '../permissions/chain.js';
import type { HookDecision, PermissionResult } from '../permissions/types.js';
import type { Tool } from '../tools/tool.js';
import type { BatchPathMemo } from './batch-path-memo.js';
import type { PipelineCall, StageResult } from './call.js';
import { permissionSubject } from './permission-subject.js';
import type { SessionPermissions } from './services.js';

export interface PermissionStageDeps {
  permissions: SessionPermissions;
  emitter: SessionEmitter;
  defenses?: DefenseCounter;
  /** The tool's event label. */
  label: string;
  /** Per-batch directory memo for the path guard; absent = every check resolves afresh. */
  pathMemo?: BatchPathMemo;
}

export async function permissionStage(
  call: PipelineCall,
  tool: Tool,
  input: unknown,
  hook: HookDecision | null,
  deps: PermissionStageDeps,
): Promise<StageResult<PermissionResult>> {
  const { config, askHuman } = deps.permissions;
  // Copied only when headless must be derived (a spread followed by more properties is a slow path in V8).
  const judged = config.headless === undefined ? { ...config, headless: !askHuman } : config;
  const result = checkPermission(permissionSubject(tool, input), judged, hook, deps.pathMemo?.for(call));
  // A call that may change files ends the sharing for the rest of its batch (batch-path-memo.ts).
  if (!result.readOnly) deps.pathMemo?.mayChangeFiles(call);
  for (const name of result.evaluatedDefenses) {
    const fired = result.defense?.name === name;
    deps.defenses?.check(name, call.turn, fired, fired ? result.defense!.action : 'block', deps.label);
  }

  // An ask is only reached when not headless (the chain turns a headless ask into deny). The
  // event keeps the step that ASKED as its source (default, path_guard, denial_fuse...) with
  // needed_prompt true and the human's answer as the decision: which step causes prompts is
  // what the permission funnel needs, and session_start.headless tells a refusal from a headless deny.
  let decision = result.decision;
  let refusedByUser = false;
  if (decision === 'ask') {
    decision = askHuman ? await askHuman({ tool: tool.name, input, reason: result.reason }) : 'deny';
    refusedByUser = decision === 'deny';
    if (decision === 'allow') config.sessionMemory?.remember(tool.name, input);
  }
  const source = result.source;
  deps.emitter.emit('permission_decision', {
    turn: call.turn,
    tool: deps.label,
    tool_use_id: call.block.id,
    decision,
    source,
    needed_prompt: result.neededPrompt,
    rule_id: result.ruleId?.slice(0, 128) ?? null,
  });

  if (config.denials) {
    const record = config.denials.record(tool.name, decision === 'allow' ? 'allow' : 'deny');
    deps.defenses?.check('denial_fuse', call.turn, record.tripped, 'fuse', deps.label);
  }
  if (decision === 'allow') return { ok: true, value: result };
  return {
    ok: false,
    failure: {
      kind: 'permission_denied',
      errorCode: refusedByUser ? 'user_refused' : (result.ruleId ?? result.source),
      message: refusedByUser
        ? `The user refused this ${tool.name} call (${result.reason.replace(/\.$/, '')}). Do not retry it; change approach or ask the user what they want.`
        : result.reason || `This ${tool.name} call was refused.`,
    },
  };
}
