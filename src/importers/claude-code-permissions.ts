/**
 * How Claude Code records a call's permission check and why a call did not
 * run, on the user line that carries its tool result (2.1.x, both in the
 * session transcript and in `--output-format stream-json`):
 * - transcript: `permissionDecision` `{decision, source, reasonType?,
 *   ruleSource?}` and `toolDenialKind` on the line (one tool result a line);
 * - stream-json: `tool_result_meta: [{id, non_execution_kind?,
 *   permission_decision?: {decision, source, reason_type?}}]`, keyed by
 *   tool_use_id.
 * Claude Code's own schema describes them: `decision` is accept, reject or
 * cancelled; `source` names what decided (config, classifier, hook,
 * user_temporary, user_permanent, user_reject, user_abort, ...); `reason_type`
 * is present only when the check decided by itself (`rule` whenever a rule
 * decided, `mode`, `classifier`, `hook`, ...) and absent when a person or the
 * SDK host answered, or when the outcome was still a question (headless: an
 * unanswered question is a reject). `non_execution_kind` is why an is_error
 * result carries no output of the tool (user-rejected, permission-rule,
 * automode-*, interrupted, cancelled); absent, the tool ran.
 */
import type { FailureKind, PermissionDecisionValue, PermissionSource } from '../events/labels.js';
import { isObject, str } from './common.js';

export interface RecordedDecision {
  decision: PermissionDecisionValue;
  source: PermissionSource;
  /** A question was put (or would have been: headless): the check did not decide by itself. */
  needed_prompt: boolean;
}

const DECISIONS: Readonly<Record<string, PermissionDecisionValue>> = { accept: 'allow', reject: 'deny' };

/** What decided, when the check decided by itself (`reason_type`), in the contract's permission chain. */
const BY_REASON: Readonly<Record<string, PermissionSource | { allow: PermissionSource; deny: PermissionSource }>> = {
  rule: { allow: 'allow_rule', deny: 'deny_rule' },
  subcommandResults: { allow: 'allow_rule', deny: 'deny_rule' },
  mode: 'mode',
  classifier: 'mode',
  asyncAgent: 'mode',
  hook: 'hook',
  permissionPromptTool: 'hook',
  workingDir: 'path_guard',
  safetyCheck: 'protected_path',
  sandboxOverride: 'tool_check',
};

/** A recorded permission check as a contract decision, or null when none was made (`cancelled`, or absent). */
export function recordedDecision(value: unknown): RecordedDecision | null {
  if (!isObject(value)) return null;
  const decision = DECISIONS[String(value.decision)];
  if (!decision) return null;
  const reason = str(value.reasonType) ?? str(value.reason_type);
  const source = String(value.source);
  const byReason = reason === null ? undefined : BY_REASON[reason];
  if (byReason !== undefined) return { decision, source: typeof byReason === 'string' ? byReason : byReason[decision === 'allow' ? 'allow' : 'deny'], needed_prompt: false };
  if (source === 'hook') return { decision, source: 'hook', needed_prompt: false };
  // A person (or the SDK host) answered the question.
  if (source.startsWith('user_')) return { decision, source: 'user', needed_prompt: true };
  // No reason of its own: the outcome was a question, and nobody answered it (headless), or the check's fallback.
  return { decision, source: 'default', needed_prompt: reason === null };
}

/** Why a call did not run, as a failure kind; null when the tool ran (or the kind is not one Claude Code documents). */
export function nonExecutionKind(kind: unknown, decision: RecordedDecision | null): FailureKind | null {
  if (kind === 'interrupted' || kind === 'cancelled') return 'aborted';
  if (kind === 'user-rejected' || kind === 'permission-rule' || (typeof kind === 'string' && kind.startsWith('automode-'))) return decision?.source === 'hook' ? 'hook_blocked' : 'permission_denied';
  return null;
}

/** The recorded check and non-execution kind of one tool result, from a transcript line or a stream-json line. */
export function resultMeta(line: Record<string, unknown>, callId: string, resultsOnLine: number): { decision: RecordedDecision | null; kind: unknown } {
  const meta = Array.isArray(line.tool_result_meta) ? line.tool_result_meta.find((m) => isObject(m) && m.id === callId) : undefined;
  if (isObject(meta)) return { decision: recordedDecision(meta.permission_decision), kind: meta.non_execution_kind };
  // The transcript records one check a line: it is this result's only when the line has no other.
  if (resultsOnLine !== 1) return { decision: null, kind: undefined };
  return { decision: recordedDecision(line.permissionDecision), kind: line.toolDenialKind };
}
