/**
 * Hash of the request prefix (system + tools), for prompt-cache stability
 * analysis (docs/harness-rules.md#stable-prefix): it must not change between turns of a session.
 */
import { createHash } from 'node:crypto';
import type { ToolDefinition } from '../../providers/types.js';

export function prefixHash(system: string | undefined, tools: readonly ToolDefinition[]): string {
  return createHash('sha256')
    .update(system ?? '')
    .update('\u0000')
    .update(JSON.stringify(tools))
    .digest('hex')
    .slice(0, 16);
}
