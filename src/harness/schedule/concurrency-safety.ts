/**
 * Call-level concurrency safety (docs/harness-rules.md#call-level-concurrency): the tool judges THIS input
 * (`bash ls` is safe, `bash rm x` is not). Every doubt means unsafe (fail
 * closed): an unknown tool, input its schema rejects, a check that throws or
 * returns anything but `true`. Failing open would run exactly the hardest to
 * judge calls in parallel.
 */
import type { Tool } from '../tools/tool.js';

/** What the tool's schema said of one input (zod's safeParse result). */
export type InputParse = ReturnType<Tool['inputSchema']['safeParse']>;

export function isCallConcurrencySafe(tool: Tool | undefined, input: unknown): boolean {
  if (!tool) return false;
  try {
    return isParsedConcurrencySafe(tool, tool.inputSchema.safeParse(input));
  } catch {
    return false;
  }
}

/** The same judgement from a parse already made (the pipeline keeps it for the call's later stages). */
export function isParsedConcurrencySafe(tool: Tool, parsed: InputParse): boolean {
  try {
    return parsed.success && tool.isConcurrencySafe(parsed.data) === true;
  } catch {
    return false;
  }
}
