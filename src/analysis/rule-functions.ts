/**
 * Rules the report shares with the rest of faultline, registered as DuckDB
 * functions so the SQL calls the very code the CLI runs instead of a copy of
 * it in SQL (a copy drifts: the prefix rule once gave opposite answers on MCP
 * names in `lint-tools` and in the integrity check).
 *
 *   tool_prefix_collision(resident VARCHAR, deferred VARCHAR) -> BOOLEAN
 *     the prefix-distinctness rule of events/tool-prefix-rule.ts; NULL in, NULL out.
 */
import { BOOLEAN, DuckDBScalarFunction, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import { collides, comparedParts, prefixCollisions, sharedPrefix } from '../events/tool-prefix-rule.js';

const registered = new WeakSet<DuckDBConnection>();

export function registerRuleFunctions(connection: DuckDBConnection): void {
  if (registered.has(connection)) return;
  registered.add(connection);
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: 'tool_prefix_collision',
      returnType: BOOLEAN,
      parameterTypes: [VARCHAR, VARCHAR],
      // NULLs are passed in (default handling would also work, but this states it).
      mainFunction: (_info, input, output) => {
        const residents = input.getColumnVector(0);
        const deferred = input.getColumnVector(1);
        for (let i = 0; i < input.rowCount; i++) {
          const r = residents.getItem(i);
          const d = deferred.getItem(i);
          output.setItem(i, typeof r === 'string' && typeof d === 'string' ? collides(r, d) : null);
        }
        output.flush();
      },
    }),
  );
}

/**
 * The rule's code, for fingerprints of cached report figures: a change to the
 * rule must recompute what it counted, as a change to a .sql file does.
 */
export const RULE_FUNCTIONS_CODE = [collides, prefixCollisions, comparedParts, sharedPrefix].map(String).join('\n');
