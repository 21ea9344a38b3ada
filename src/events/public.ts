/**
 * `faultline/events`: what another harness needs to log in faultline's
 * format, and nothing heavier than zod. The emitter, the contract (schemas,
 * labels, the line judge `faultline validate` uses) and the sinks. The same
 * contract as JSON Schema, for other languages: `faultline/schema/events.v1.json`.
 */
export { createEmitter, SessionLog, type Emitter, type EmitterOptions, type SessionOptions, type ToolCallLog, type ToolResultFields } from './create-emitter.js';
export * from './labels.js';
export { EVENT_SCHEMAS, EVENT_NAMES, AnyEvent, type FaultlineEvent, type EventName, type EventOf, type EventInput } from './schemas.js';
export { parseLine, judgeValue, type LineVerdict, type LineProblem } from './parse-line.js';
export { JsonlSink, MemorySink, type EventSink, type SinkOptions, type SinkStats } from './sink.js';
export { checkTraceFile, type TraceCheck, type BadLine } from './check-trace.js';
