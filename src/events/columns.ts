/**
 * The column list of the event table, derived from the zod schemas through
 * their JSON Schema (never written by hand). Used by the analysis layer to
 * declare `columns=` for DuckDB and by anything that needs the flat shape.
 */
import { eventJsonSchema, type SchemaNode } from './schema-nodes.js';
import { EVENT_NAMES, type EventName } from './schemas.js';

export type ColumnKind = 'string' | 'integer' | 'number' | 'boolean' | 'string[]';

export interface Column {
  name: string;
  kind: ColumnKind;
  /** Events that carry this column. */
  events: EventName[];
}

function kindOf(node: SchemaNode): ColumnKind {
  const variants = node.anyOf ?? [node];
  const types = new Set<string>();
  for (const v of variants) {
    if (v.type === 'null') continue;
    if (v.type === 'array') {
      types.add('string[]');
      continue;
    }
    if (typeof v.type === 'string') types.add(v.type);
    else if (typeof v.const === 'string' || (v.enum ?? []).every((e) => typeof e === 'string')) types.add('string');
    else if (typeof v.const === 'number') types.add('integer');
  }
  if (types.size !== 1) {
    // A column must have one type in every event that carries it.
    throw new Error(`column has mixed types: ${[...types].join(',')}`);
  }
  return [...types][0] as ColumnKind;
}

let cached: Column[] | null = null;

export function eventColumns(): Column[] {
  if (cached) return cached;
  const byName = new Map<string, Column>();
  for (const event of EVENT_NAMES) {
    for (const [name, node] of Object.entries(eventJsonSchema(event).properties ?? {})) {
      const kind = kindOf(node);
      const existing = byName.get(name);
      if (existing) {
        if (existing.kind !== kind) throw new Error(`column ${name} is ${existing.kind} in one event and ${kind} in ${event}`);
        existing.events.push(event);
      } else byName.set(name, { name, kind, events: [event] });
    }
  }
  cached = [...byName.values()];
  return cached;
}
