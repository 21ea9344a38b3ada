/**
 * Lookup tables built from the closed label sets in src/events/labels.ts, so
 * the report SQL never hard-codes which failure kinds are pre-execution, which
 * defenses exist, or which stop classes / error kinds can appear.
 */
import {
  EXECUTION_FAILURE_KINDS,
  EXTERNAL_GUARDRAIL,
  ShippedDefense,
  ModelErrorKind,
  PRE_EXECUTION_FAILURE_KINDS,
  SessionOutcome,
  StopClass,
} from '../events/labels.js';
import { sqlString, type Duck } from './duck.js';

function valuesTable(name: string, columns: string[], rows: string[][]): string {
  const values = rows.map((r) => `(${r.map(sqlString).join(', ')})`).join(', ');
  return `CREATE OR REPLACE TABLE ${name} AS SELECT * FROM (VALUES ${values}) AS t(${columns.join(', ')})`;
}

/** The statements that make the lookup tables (also part of what report figures depend on: rows/figures-cache.ts). */
export function labelTablesSql(): string[] {
  return [
    valuesTable('failure_kind_phase', ['failure_kind', 'phase'], [
      ...PRE_EXECUTION_FAILURE_KINDS.map((k) => [k, 'pre_execution']),
      ...EXECUTION_FAILURE_KINDS.map((k) => [k, 'execution']),
    ]),
    // The defenses faultline ships (listed even when a trace never mentions them, so one switched off shows);
    // `external`: a guardrail of another harness (imported traces), listed only when a trace mentions it.
    valuesTable('known_defense', ['defense', 'external'], [...ShippedDefense.options.map((d) => [d, 'false']), [EXTERNAL_GUARDRAIL, 'true']]),
    valuesTable('known_stop_class', ['stop_class'], StopClass.options.map((s) => [s])),
    valuesTable('known_error_kind', ['error_kind'], ModelErrorKind.options.map((s) => [s])),
    valuesTable('known_outcome', ['outcome'], SessionOutcome.options.map((s) => [s])),
  ];
}

export async function createLabelTables(duck: Duck): Promise<void> {
  for (const sql of labelTablesSql()) await duck.exec(sql);
}
