/**
 * docs/event-contract.md, generated from the zod schemas through the same JSON
 * Schema nodes as schema/events.v1.json and the DuckDB column list, so the page
 * cannot drift from the contract (`npm run gen:schema` rewrites both; a test
 * compares the committed page with this rendering). Field notes — the doc
 * comments written beside the schemas — are passed in by the generator, which
 * reads them from the source; the shape, types and closed value sets come from
 * the schemas alone.
 */
import { CONTRACT_VERSION } from './labels.js';
import { eventJsonSchema, type SchemaNode } from './schema-nodes.js';
import { EVENT_NAMES } from './schemas.js';

/** Doc comments by `event.field`, or `*.field` for a field shared by every event that has it; `event` alone for the event. */
export type FieldNotes = Readonly<Record<string, string>>;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function literal(value: unknown): string {
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

/** One non-null variant, in words: `integer ≥ 0`, `string ≤ 64 chars`, one of `a`, `b`. */
function variantText(node: SchemaNode): string {
  if (node.const !== undefined) return literal(node.const);
  if (node.enum) return `one of ${node.enum.map(literal).join(', ')}`;
  if (node.type === 'array') return `array of ${node.items ? typeText(node.items) : 'values'}`;
  const parts: string[] = [String(node.type ?? 'any')];
  if (node.minimum !== undefined) parts.push(`≥ ${node.minimum}`);
  if (node.exclusiveMinimum !== undefined) parts.push(`> ${node.exclusiveMinimum}`);
  if (node.maximum !== undefined && node.maximum !== MAX_SAFE) parts.push(`≤ ${node.maximum}`);
  if (node.exclusiveMaximum !== undefined) parts.push(`< ${node.exclusiveMaximum}`);
  if (node.minLength !== undefined && node.minLength > 0) parts.push(`${node.minLength}..${node.maxLength ?? ''} chars`);
  else if (node.maxLength !== undefined) parts.push(`≤ ${node.maxLength} chars`);
  if (node.pattern !== undefined) parts.push(`matching \`${node.pattern}\``);
  return parts.join(' ');
}

function typeText(node: SchemaNode): string {
  const variants = (node.anyOf ?? [node]).filter((v) => v.type !== 'null');
  return variants.map(variantText).join(' or ') || 'null';
}

const isNullable = (node: SchemaNode) => (node.anyOf ?? []).some((v) => v.type === 'null');

function eventSection(event: (typeof EVENT_NAMES)[number], notes: FieldNotes): string {
  const schema = eventJsonSchema(event);
  const required = new Set(schema.required ?? []);
  const lines = [`## ${event}`, ''];
  if (notes[event]) lines.push(notes[event], '');
  lines.push('| field | type | presence | notes |', '|---|---|---|---|');
  for (const [field, node] of Object.entries(schema.properties ?? {})) {
    const presence = required.has(field) ? (isNullable(node) ? 'required, may be `null`' : 'required') : 'optional';
    const note = notes[`${event}.${field}`] ?? notes[`*.${field}`] ?? '';
    lines.push(`| \`${field}\` | ${cell(typeText(node))} | ${presence} | ${cell(note)} |`);
  }
  return lines.join('\n');
}

export function eventContractMarkdown(notes: FieldNotes = {}): string {
  const head = [
    '<!-- Generated from src/events/schemas.ts by `npm run gen:schema` (src/events/contract-markdown.ts). Do not edit. -->',
    '',
    `# Event contract (v${CONTRACT_VERSION})`,
    '',
    'One JSON object per line, UTF-8, each line ending in `\\n`. Every line carries `v`, `ts`, `seq`, `run_id` and `event`;',
    'session events add `session_id` and `task_id`, turn events `turn`. Every field is a scalar or an array of scalars,',
    'so DuckDB reads each one as a single typed column. The same contract as JSON Schema: `schema/events.v1.json`.',
    '',
    '"required, may be `null`": the field is always written; `null` means the source did not record the value',
    '(an imported trace, or an emitter caller that did not give it), and reports leave such events out of the figure',
    'that needs the value. "optional": absent in traces written before the field existed; its absence has one meaning,',
    'given in the notes. The contract grows only by adding optional fields, events, or label values.',
    '',
    `Events: ${EVENT_NAMES.map((e) => `[\`${e}\`](#${e})`).join(' · ')}`,
  ];
  return [head.join('\n'), ...EVENT_NAMES.map((e) => eventSection(e, notes))].join('\n\n') + '\n';
}
