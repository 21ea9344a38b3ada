/**
 * The session's system prompt, assembled once and sent unchanged every turn
 * (docs/harness-rules.md#stable-prefix: a changing prefix busts the prompt cache): the caller's prompt,
 * then the permission constraints that are fixed for the session (docs/harness-rules.md#rules-up-front:
 * otherwise the model learns each deny rule by being refused), then the facts
 * frozen at session start (docs/harness-rules.md#fact-source-conflict; fact_source_conflict keeps them
 * honest in user-side reminders, never by editing this text).
 */
import { snapshotsSystemText } from '../context/snapshots.js';
import type { FrozenSnapshot } from '../defenses/types.js';
import { staticConstraintsText } from '../permissions/constraints-text.js';
import type { PermissionConfig } from '../permissions/types.js';

export function sessionSystemPrompt(base: string | undefined, permissions: PermissionConfig | undefined, snapshots: readonly FrozenSnapshot[]): string | undefined {
  const parts = [base ?? '', permissions ? staticConstraintsText(permissions) : '', snapshotsSystemText(snapshots)].filter((p) => p !== '');
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}
