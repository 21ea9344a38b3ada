/**
 * Event contract v1 (docs/event-contract.md). These zod schemas are the single source of
 * truth: TypeScript types, runtime validation, schema/events.v1.json and the
 * DuckDB column list are all derived from them.
 *
 * Every event is a flat object of scalars (no nested objects) so the same
 * column can be read by DuckDB with one declared type.
 *
 * Growing v1 without breaking a trace already written: a new field is
 * `.optional()` (absent in old lines, and its absence has one documented
 * meaning), a new event is a new entry, a closed label set only gains values.
 *
 * The catalog is written in three parts by what the events are about
 * (run-event-schemas.ts, tool-event-schemas.ts, check-event-schemas.ts) over
 * the shared fields of schema-fields.ts; EVENT_SCHEMAS is their union, in that order.
 */
import { z } from 'zod';
import { CHECK_EVENT_SCHEMAS } from './check-event-schemas.js';
import { RUN_EVENT_SCHEMAS } from './run-event-schemas.js';
import { TOOL_EVENT_SCHEMAS } from './tool-event-schemas.js';

export const EVENT_SCHEMAS = { ...RUN_EVENT_SCHEMAS, ...TOOL_EVENT_SCHEMAS, ...CHECK_EVENT_SCHEMAS } as const;

export type EventName = keyof typeof EVENT_SCHEMAS;
export const EVENT_NAMES = Object.keys(EVENT_SCHEMAS) as EventName[];

export const AnyEvent = z.discriminatedUnion(
  'event',
  Object.values(EVENT_SCHEMAS) as unknown as [
    (typeof EVENT_SCHEMAS)[EventName],
    ...(typeof EVENT_SCHEMAS)[EventName][],
  ],
);

export type EventOf<N extends EventName> = z.infer<(typeof EVENT_SCHEMAS)[N]>;
export type FaultlineEvent = { [N in EventName]: EventOf<N> }[EventName];

/** Envelope keys the sink fills in; callers give the rest. */
export type EnvelopeKey = 'v' | 'ts' | 'seq';
export type EventInput<N extends EventName = EventName> = N extends EventName
  ? Omit<EventOf<N>, EnvelopeKey>
  : never;
