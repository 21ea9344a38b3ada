/**
 * Hash of the request prefix (system + tools), for prompt-cache stability
 * analysis (docs/harness-rules.md#stable-prefix): it must not change between turns of a session.
 *
 * Every session of a run sends the same shared, deep-frozen definitions (tools/tool-definition.ts) and most send
 * the same system prompt, so the hash is remembered by the system text and the identity of each definition: the
 * serialization of the tools and the sha256 (~20-30 us a session) are made once. Any other definition (built by a
 * test fault, or by a registry of another kind) is hashed from its content every time.
 */
import { createHash } from 'node:crypto';
import type { ToolDefinition } from '../../providers/types.js';
import { isSharedDefinition } from '../tools/tool-definition.js';

interface Node {
  next: WeakMap<ToolDefinition, Node>;
  hash?: string;
}

const bySystem = new Map<string, Node>();
/** System prompts can differ per session (facts frozen into them): the memo is dropped rather than grown past this. */
const MAX_SYSTEMS = 256;

export function prefixHash(system: string | undefined, tools: readonly ToolDefinition[]): string {
  for (const tool of tools) if (!isSharedDefinition(tool)) return hashOf(system, tools);
  const text = system ?? '';
  let node: Node | undefined = bySystem.get(text);
  if (node === undefined) {
    if (bySystem.size >= MAX_SYSTEMS) bySystem.clear();
    node = { next: new WeakMap() };
    bySystem.set(text, node);
  }
  for (const tool of tools) {
    let child: Node | undefined = node.next.get(tool);
    if (child === undefined) {
      child = { next: new WeakMap() };
      node.next.set(tool, child);
    }
    node = child;
  }
  return (node.hash ??= hashOf(system, tools));
}

function hashOf(system: string | undefined, tools: readonly ToolDefinition[]): string {
  return createHash('sha256')
    .update(system ?? '')
    .update('\u0000')
    .update(JSON.stringify(tools))
    .digest('hex')
    .slice(0, 16);
}
