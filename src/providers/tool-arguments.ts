/**
 * Parse wire tool arguments (OpenAI sends a JSON string). Never throws: bad
 * arguments become `input: {}` plus `inputError`, so the harness can answer the
 * call with a precise error result instead of crashing the turn (docs/harness-rules.md#degeneration-fallbacks, docs/harness-rules.md#validation-errors).
 */
import type { ToolUseBlock } from './types.js';

export const RAW_ARGUMENTS_CAP = 200;

type Parsed = Pick<ToolUseBlock, 'input' | 'inputError'>;

function cap(raw: string): string {
  return raw.length > RAW_ARGUMENTS_CAP ? raw.slice(0, RAW_ARGUMENTS_CAP) : raw;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseToolArguments(raw: string): Parsed {
  if (raw.trim() === '') return { input: {}, inputError: { reason: 'empty', raw: cap(raw) } };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { input: {}, inputError: { reason: 'malformed', raw: cap(raw) } };
  }
  if (!isPlainObject(value)) return { input: {}, inputError: { reason: 'not_object', raw: cap(raw) } };
  return { input: value };
}

/** An already-decoded input (Anthropic wire) that may still not be an object. */
export function checkToolInput(value: unknown): Parsed {
  if (isPlainObject(value)) return { input: value };
  return { input: {}, inputError: { reason: 'not_object', raw: cap(JSON.stringify(value) ?? String(value)) } };
}
