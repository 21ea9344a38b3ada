/**
 * Tool schemas as sent (seed §11): bytes spent on keys no provider documents
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

export function schemaChecks(view: SessionView): CheckTally[] {
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
    for (const tool of transcript.tools) {
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
  return [bloat, strict];
}
