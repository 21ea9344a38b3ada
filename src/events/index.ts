export * from './labels.js';
export * from './schemas.js';
export * from './sink.js';
export * from './emitter.js';
export * from './parse-line.js';
export * from './columns.js';
export * from './redact.js';
export * from './json-schema.js';
