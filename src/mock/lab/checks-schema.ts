/**
 * Tool schemas as sent (docs/harness-rules.md#schema-dialects): bytes spent on keys no provider documents
 * (`$schema`, `$id`, `$comment`, at any schema depth), per request and per
 * session; and, for tools sent with `strict: true`, a schema the wire's strict
 * mode accepts (every object `additionalProperties: false`; on the OpenAI
 * wires also every property listed in `required`).
 */
import { rewriteSchema } from '../../providers/dialects/walk.js';
import { UNDOCUMENTED_KEYS } from '../../providers/dialects/common.js';
import type { JsonSchema } from '../../providers/types.js';
import { CheckTally } from './check-result.js';
import type { SessionView } from './session-view.js';
import { strictProblem } from '../strict-schema.js';

/** Bytes the undocumented keys take in one schema: `"key":value` plus its comma. */
export function undocumentedBytes(schema: JsonSchema): number {
  let total = 0;
  rewriteSchema(schema, (node) => {
    for (const key of UNDOCUMENTED_KEYS) if (key in node) total += Buffer.byteLength(`${JSON.stringify(key)}:${JSON.stringify(node[key])},`);
  });
  return total;
}

/**
 * OpenAI's documented limits on a schema (Structured Outputs, "supported
 * schemas"): at most 1,000 enum values in all, 15,000 characters of string
 * values in one enum of more than 250, 10 levels of nesting, 5,000 object
 * properties; and at most 128 tools in one request (function calling). Past
 * them OpenAI rejects the request; below, a tool this large still costs its
 * bytes on every request and crowds what the model reads.
 */
export const TOOL_LIMITS = { enumValues: 1_000, largeEnum: 250, largeEnumChars: 15_000, depth: 10, properties: 5_000, tools: 128 } as const;

/** What in one schema is over the documented limits, in words, or null. */
export function oversizedSchema(schema: JsonSchema): string | null {
  let enumValues = 0;
  let properties = 0;
  let depth = 0;
  const problems: string[] = [];
  const walk = (node: unknown, level: number): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, level));
    if (typeof node !== 'object' || node === null) return;
    const o = node as Record<string, unknown>;
    if (Array.isArray(o['enum'])) {
      const values = o['enum'] as unknown[];
      enumValues += values.length;
      const chars = values.reduce<number>((n, v) => n + (typeof v === 'string' ? v.length : 0), 0);
      if (values.length > TOOL_LIMITS.largeEnum && chars > TOOL_LIMITS.largeEnumChars) problems.push(`an enum of ${values.length} values with ${chars} characters (over ${TOOL_LIMITS.largeEnumChars} for an enum of more than ${TOOL_LIMITS.largeEnum})`);
    }
    const props = o['properties'];
    if (typeof props === 'object' && props !== null && !Array.isArray(props)) {
      properties += Object.keys(props).length;
      depth = Math.max(depth, level + 1);
      for (const v of Object.values(props)) walk(v, level + 1);
    }
    for (const [k, v] of Object.entries(o)) if (k !== 'properties' && k !== 'enum') walk(v, level);
  };
  walk(schema, 0);
  if (enumValues > TOOL_LIMITS.enumValues) problems.unshift(`${enumValues} enum values (over ${TOOL_LIMITS.enumValues})`);
  if (depth > TOOL_LIMITS.depth) problems.push(`${depth} levels of nesting (over ${TOOL_LIMITS.depth})`);
  if (properties > TOOL_LIMITS.properties) problems.push(`${properties} object properties (over ${TOOL_LIMITS.properties})`);
  return problems.length > 0 ? problems.join(', ') : null;
}

export function schemaChecks(view: SessionView): CheckTally[] {
  const oversized = new CheckTally('oversized_tool_definitions');
  const bloat = new CheckTally('undocumented_schema_keys');
  const strict = new CheckTally('strict_schema_invalid');
  let total = 0;
  let requests = 0;
  const bloated = new Set<string>();
  let firstTurn = 0;
  view.exchanges.forEach(({ transcript, turn }, i) => {
    if (!transcript || transcript.tools.length === 0) return;
    bloat.look(`req:${i}`);
    requests++;
    oversized.look('tools');
    if (transcript.tools.length > TOOL_LIMITS.tools) oversized.flag('tools', { turn, detail: `turn ${turn}: ${transcript.tools.length} tools in one request (OpenAI accepts at most ${TOOL_LIMITS.tools})` });
    for (const tool of transcript.tools) {
      oversized.look(tool.name);
      const big = oversizedSchema(tool.schema);
      if (big !== null) oversized.flag(tool.name, { turn, bytes: Buffer.byteLength(tool.json), detail: `turn ${turn}: tool ${tool.name} (${Buffer.byteLength(tool.json)} bytes) has ${big}: OpenAI rejects such a schema, and it is paid on every request` });
      const bytes = undocumentedBytes(tool.schema);
      if (bytes > 0) {
        if (bloated.size === 0) firstTurn = turn;
        bloated.add(tool.name);
        total += bytes;
      }
      if (!tool.strict) continue;
      strict.look(tool.name);
      const problem = strictProblem(tool.schema, transcript.wire);
      if (problem !== null) strict.flag(tool.name, { turn, detail: `turn ${turn}: tool ${tool.name} is sent strict but its schema is not strict-valid: ${problem}` });
    }
  });
  if (total > 0) {
    bloat.flag('session', {
      turn: firstTurn,
      bytes: total,
      detail: `${total} bytes on $schema/$id/$comment over ${requests} requests (${Math.round(total / requests)} per request) in ${bloated.size} tools, all inside the cached tools prefix`,
    });
  }
  return [bloat, strict, oversized];
}
