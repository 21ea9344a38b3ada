/**
 * The permission chain (docs/harness-rules.md#permission-chain): ordered steps, first decisive answer wins.
 * The order IS the security semantics:
 *
 *  1 deny_rules        explicit denies first: nothing later can undo them.
 *  2 dangerous_command code-level hard block (rm -rf /, mkfs, curl|sh...), before every
 *                      mode, so acceptEdits/bypass never reach it (docs/harness-rules.md#permission-chain).
 *  3 disabled_tools    configured off: refused whatever the input.
 *  4 protected_paths   bypass-immune (.git/hooks, harness config): before every allow,
 *                      hook allow and bypass (docs/harness-rules.md#permission-chain); may only deny or ask.
 *  5 path_validation   symlinks resolved; writes outside the workspace or to system
 *                      paths and secrets denied here. Its asks (reads outside, .env)
 *                      are SOFT: later explicit consent (hook allow, allow rule,
 *                      session memory, bypass) may lift them; heuristics (acceptEdits,
 *                      read-only auto-allow) may not.
 *  6 denial_fuse       a tool refused N times stops here before anything can allow it.
 *  7 ask_rules         explicit "always ask me" beats every allow below.
 *  8 tool_check        the tool's own judgement; for bash: parse failure, substitution,
 *                      eval, pipe into a shell, env tricks -> ask (not liftable by modes).
 *  9 hook              PreToolUse decision. A reference harness ranks hook > rules > tool check >
 *                      mode; we keep hook above every CONVENIENCE allow (rules, memory,
 *                      modes, read-only) but below every SAFETY step (1-8), so a hook's
 *                      allow can never override a deny, a hard block, a protected path,
 *                      an ask rule or a structural shell check. Hook deny/ask only
 *                      restrict, so their position only affects attribution.
 * 10 allow_rules       every sub-command / path covered by some allow rule.
 * 11 session_memory    a human approved exactly this call earlier (tool + input hash).
 * 12 mode              plan: non-read-only denied; bypass: allow what reached here, except
 *                      code faultline cannot see when no OS sandbox confines it (ask);
 *                      acceptEdits: file writes inside the workspace allowed.
 * 13 read_only         the read-only allow list (read/ls/glob/grep, bash if isReadOnlyCommand).
 * 14 default           ask (fail closed, docs/harness-rules.md#permission-chain); headless turns it into deny.
 */
import { dangerIn } from './dangerous-command.js';
import { findCoveringAllow, findMatchingRule } from './rules.js';
import { viewCall, type CallView } from './call-view.js';
import type { RealDirMemo } from './path-resolve.js';
import type { ShellConstruct } from './shell-types.js';
import type { DefenseName } from '../../events/labels.js';
import type { ChainStep, HookDecision, PermissionConfig, PermissionResult, PermissionSubject } from './types.js';

type Draft = Omit<PermissionResult, 'neededPrompt' | 'evaluatedDefenses' | 'readOnly'>;

const CONSTRUCT_TEXT: Record<ShellConstruct, string> = {
  command_substitution: 'command substitution',
  backticks: 'backtick substitution',
  process_substitution: 'process substitution',
  eval_like: 'code evaluated at run time',
  pipe_to_interpreter: 'input piped into a shell or interpreter',
  env_tampering: 'an environment variable or shell or git setting that changes what runs',
  dynamic_command: 'a command name computed at run time',
  function_definition: 'a shell function definition',
};

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const HEADLESS_SUFFIX = ' No one can approve this in the current run (headless), so it is refused. Do not retry the same call; use a read-only alternative or change approach.';

/**
 * `dirMemo`: parent-directory real paths the path guard may reuse across the
 * checks given the same map (RealDirMemo). Only ever one batch of read-only
 * calls (the pipeline's BatchPathMemo); a session-long one would widen the
 * check/use window.
 */
export function checkPermission(subject: PermissionSubject, config: PermissionConfig, hook: HookDecision | null = null, dirMemo?: RealDirMemo): PermissionResult {
  const evaluatedDefenses: DefenseName[] = [];
  const view = viewCall(subject, config, dirMemo);
  const draft = decide(subject, config, hook, view, evaluatedDefenses);
  const neededPrompt = draft.decision === 'ask';
  const headlessDeny = neededPrompt && (config.headless ?? true);
  // Spelled out, not `{ ...draft, more }`: V8 takes a slow path for a spread followed by more properties.
  return {
    decision: headlessDeny ? 'deny' : draft.decision,
    source: draft.source,
    ruleId: draft.ruleId,
    neededPrompt,
    reason: headlessDeny ? draft.reason + HEADLESS_SUFFIX : draft.reason,
    step: draft.step,
    defense: draft.defense,
    evaluatedDefenses,
    readOnly: view.readOnly,
  };
}

/** The step is switched on (a module function, not a closure per call). */
function isOn(skip: ReadonlySet<ChainStep> | undefined, step: ChainStep): boolean {
  return skip === undefined || !skip.has(step);
}

/** A chain answer that no defense gave (a literal: see checkPermission on spreads). */
function answer(decision: Draft['decision'], source: Draft['source'], step: ChainStep, reason: string, ruleId: string | null = null): Draft {
  return { decision, source, step, ruleId, defense: null, reason };
}

function decide(subject: PermissionSubject, config: PermissionConfig, hook: HookDecision | null, view: CallView, evaluated: DefenseName[]): Draft {
  const skip = config.skipSteps;
  const rules = config.rules ?? [];
  const tool = subject.tool;

  if (isOn(skip, 'deny_rules')) {
    const rule = findMatchingRule(rules, 'deny', tool, view.units);
    if (rule) return answer('deny', 'deny_rule', 'deny_rules', `Refused by the deny rule "${rule.id}". This is configured; do not retry it in another form — choose a different approach.`, rule.id);
  }
  if (isOn(skip, 'dangerous_command') && view.analysis) {
    evaluated.push('dangerous_command_block');
    const hit = dangerIn(view.analysis, { homeDir: config.homeDir }, 0);
    if (hit) return { decision: 'deny', source: 'dangerous_command', step: 'dangerous_command', ruleId: `danger:${hit.id}`, defense: { name: 'dangerous_command_block', action: 'block' }, reason: `Refused: ${hit.reason}` };
  }
  if (isOn(skip, 'disabled_tools') && config.disabledTools?.includes(tool)) {
    return answer('deny', 'disabled_tool', 'disabled_tools', `The tool ${tool} is disabled in this session; use another tool.`);
  }
  if (isOn(skip, 'protected_paths') && view.paths.length > 0) {
    evaluated.push('protected_path_guard');
    const hits = view.paths.filter((p) => p.verdict.source === 'protected_path' && p.verdict.effect !== 'pass');
    const hit = hits.find((p) => p.verdict.effect === 'deny') ?? hits[0];
    if (hit) {
      const decision = hit.verdict.effect === 'deny' ? 'deny' : 'ask';
      return { decision, source: 'protected_path', step: 'protected_paths', ruleId: hit.verdict.ruleId, defense: { name: 'protected_path_guard', action: decision === 'deny' ? 'block' : 'ask' }, reason: cap(hit.verdict.reason) };
    }
  }
  let pending: Draft | null = null;
  // A firm ask (a write whose target is computed at run time) is not lifted by a mode, only by explicit consent.
  let pendingFirm = false;
  if (isOn(skip, 'path_validation')) {
    const denied = view.paths.find((p) => p.verdict.source === 'path_guard' && p.verdict.effect === 'deny');
    if (denied) return answer('deny', 'path_guard', 'path_validation', cap(denied.verdict.reason), denied.verdict.ruleId);
    let asked: CallView['paths'][number] | undefined;
    for (const p of view.paths) {
      if (p.verdict.source !== 'path_guard' || p.verdict.effect !== 'ask') continue;
      if (p.verdict.firm === true) {
        asked = p;
        break;
      }
      asked ??= p;
    }
    if (asked) {
      pending = answer('ask', 'path_guard', 'path_validation', cap(asked.verdict.reason), asked.verdict.ruleId);
      pendingFirm = asked.verdict.firm === true;
    }
  }
  if (isOn(skip, 'denial_fuse') && config.denials?.isTripped(tool)) {
    return answer(config.fuseDecision ?? 'ask', 'denial_fuse', 'denial_fuse', `Calls of ${tool} were refused ${plural(config.denials.count(tool), 'time')} in this session. Stop retrying ${tool}: change your approach, or explain to the user what you need and why.`);
  }
  if (isOn(skip, 'ask_rules')) {
    const rule = findMatchingRule(rules, 'ask', tool, view.units);
    if (rule) return answer('ask', 'ask_rule', 'ask_rules', `The rule "${rule.id}" requires approval for this call.`, rule.id);
  }
  if (isOn(skip, 'tool_check')) {
    const a = view.analysis;
    if (a && !a.ok) return answer('ask', 'tool_check', 'tool_check', `The command could not be analyzed (${a.error}). Simplify it: one plain command per call, quotes closed.`);
    const flag = a?.ok ? a.flags[0] : undefined;
    if (flag) return answer('ask', 'tool_check', 'tool_check', `The command uses ${CONSTRUCT_TEXT[flag.construct]} (${flag.detail}), which needs approval. Rewrite it as plain commands with literal arguments; run any inner command as its own call.`);
    if (view.untrustedGit) return answer('ask', 'tool_check', 'tool_check', `${cap(view.untrustedGit)}. Run git only in the workspace's own repository (its .git directory), or ask the user to review that repository first.`);
    if (subject.toolCheck) return answer(subject.toolCheck.decision, 'tool_check', 'tool_check', subject.toolCheck.reason);
  }
  if (isOn(skip, 'hook') && hook) {
    const why = hook.reason ? ` (${hook.reason})` : '';
    if (hook.decision === 'deny') return answer('deny', 'hook', 'hook', `Refused by a PreToolUse hook${why}.`);
    if (hook.decision === 'ask') return answer('ask', 'hook', 'hook', `A PreToolUse hook requires approval${why}.`);
    return answer('allow', 'hook', 'hook', '');
  }
  if (isOn(skip, 'allow_rules') && !(view.analysis && !view.analysis.ok)) {
    const rule = findCoveringAllow(rules, tool, view.units);
    if (rule) return answer('allow', 'allow_rule', 'allow_rules', '', rule.id);
  }
  if (isOn(skip, 'session_memory') && config.sessionMemory?.has(tool, subject.input)) {
    return answer('allow', 'session_memory', 'session_memory', '');
  }
  if (isOn(skip, 'mode')) {
    if (config.mode === 'plan' && !view.readOnly) {
      return answer('deny', 'mode', 'mode', `Plan mode is read-only and ${view.notReadOnlyBecause}. Describe the change in your plan instead of making it.`);
    }
    if (config.mode === 'bypass' && !pendingFirm) {
      // Code it cannot see may write anywhere, protected paths included: only the OS sandbox confines it,
      // so without one bypass does not lift it (explicit consent above still does). Other modes ask anyway.
      if (!(view.unseenCode && !config.sandboxed && isOn(skip, 'path_validation'))) return answer('allow', 'mode', 'mode', '');
      pending = answer('ask', 'mode', 'mode', `${cap(view.unseenCode)}: it may write outside the workspace or into protected paths, and no OS sandbox confines it here, so bypass mode does not cover it; it needs approval.`, 'unseen_code');
    }
    const edits = subject.command === undefined && view.paths.some((p) => p.access.access === 'write');
    if (config.mode === 'acceptEdits' && edits && !pending && view.paths.every((p) => p.verdict.effect === 'pass')) {
      return answer('allow', 'mode', 'mode', '');
    }
  }
  // The path is one reason; a command that is not read-only has a second one, and naming only the
  // first would send the model to retry with another path (docs/harness-rules.md#denial-fuse: refusals say what to change).
  if (pending) return view.readOnly || !view.notReadOnlyBecause || subject.command === undefined ? pending : { ...pending, reason: `${pending.reason} Besides, this call needs approval because ${view.notReadOnlyBecause}.` };
  if (isOn(skip, 'read_only') && view.readOnly) return answer('allow', 'read_only', 'read_only', '');
  const why = view.notReadOnlyBecause ? ` because ${view.notReadOnlyBecause}` : '';
  return answer('ask', 'default', 'default', `This ${tool} call needs approval${why}.`);
}
