/** Small mappings every importer shares; each keeps the source's value or says it has none (null). */
import { basename } from 'node:path';
import { toolLabel } from '../events/emitter.js';

/** A tool name as a label: names the contract can carry pass; others become `<unknown>` with the name (cut to 64) kept apart. */
export function importedTool(name: string): { tool: string; requested_tool: string | null } {
  return toolLabel(name, () => true);
}

/** An ISO 8601 time as epoch ms, or null when it is absent or not a time. */
export function isoMs(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

/** A duration from two source times, or null when either is missing or they run backwards. */
export function between(start: number | null, end: number | null): number | null {
  return start !== null && end !== null && end >= start ? end - start : null;
}

/** The run id of an import whose source names no run: the format and the file's base name. */
export function fileRunId(format: string, path: string): string {
  return `${format}:${basename(path).replace(/\.(jsonl?|json)$/i, '')}`.slice(0, 128);
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
export const count = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);

/** UTF-8 bytes of a tool result as the model saw it (a string, or text blocks), or null when it has no text form. */
export function resultBytes(content: unknown): number | null {
  if (typeof content === 'string') return Buffer.byteLength(content);
  if (Array.isArray(content)) {
    let n = 0;
    for (const block of content) {
      if (isObject(block) && typeof block.text === 'string') n += Buffer.byteLength(block.text);
      else return null; // an image or other block: its size as the model saw it is not in the source
    }
    return n;
  }
  return content === undefined || content === null ? 0 : null;
}

/** What a source with no request log cannot say about a model request (the contract's "not available in source"). */
export const REQUEST_NOT_RECORDED = { stream: null, messages_count: null, tools_count: null, tools_bytes: null, request_bytes: null, prefix_hash: null } as const;

/** Token counts a source does not have. */
export const TOKENS_NOT_RECORDED = { input_tokens: null, output_tokens: null, cache_read_tokens: null, cache_write_tokens: null } as const;
