/**
 * Test-only (harness/faults.ts): the two definition faults of docs/harness-rules.md#green-but-broken that a
 * harness ships without noticing. A second, hand-written path from tools to
 * definitions that keeps name, description and schema but drops the usage
 * guide (F11: 86% of the description text lost, docs/harness-rules.md#descriptions); and a timestamp
 * in a description, which changes the request prefix on every turn and so
 * defeats the prompt cache (docs/harness-rules.md#stable-prefix). Without faults the definitions pass through.
 */
import type { ToolDefinition } from '../../providers/types.js';
import type { HarnessFaults } from '../faults.js';
import type { ToolRegistryLike } from '../tools/registry-like.js';

export function faultyDefinitions(tools: ToolDefinition[], registry: ToolRegistryLike, faults: HarnessFaults): ToolDefinition[] {
  let out = tools;
  if (faults.secondDefinitionPath) {
    out = out.map((d) => ({ name: d.name, description: registry.get(d.name)?.description ?? d.description, input_schema: d.input_schema }));
  }
  if (faults.timestampInDescription && out.length > 0) {
    out = out.map((d, i) => (i === 0 ? { ...d, description: `${d.description} (current time: ${new Date().toISOString()})` } : d));
  }
  return out;
}
