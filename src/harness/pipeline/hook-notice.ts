/**
 * The notice put in front of a result when a PreToolUse hook really changed
 * the call's input (docs/harness-rules.md#hooks): without it the model reads the result as the
 * answer to the arguments IT sent and builds on a false premise. The notice
 * never echoes the values: a hook may have injected credentials or paths
 * that must not flow back into the model's context (docs/harness-rules.md#truncate-and-spill).
 */
export const HOOK_MODIFIED_NOTICE =
  '[Note: a PreToolUse hook modified the arguments of this call before it ran. The result below is for the modified arguments, not the ones you sent.]';

export function withHookNotice(content: string, modified: boolean | undefined): string {
  return modified ? `${HOOK_MODIFIED_NOTICE}\n\n${content}` : content;
}
