/**
 * Hash of the request prefix (system + tools), for prompt-cache stability
 * analysis (seed §3.5): it must not change between turns of a session.
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
