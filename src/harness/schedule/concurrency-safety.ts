/**
 * Call-level concurrency safety (docs/harness-rules.md#call-level-concurrency): the tool judges THIS input
 * (`bash ls` is safe, `bash rm x` is not). Every doubt means unsafe (fail
 * closed): an unknown tool, input its schema rejects, a check that throws or
 * returns anything but `true`. Failing open would run exactly the hardest to
 * judge calls in parallel.
 */
import type { Tool } from '../tools/tool.js';

export function isCallConcurrencySafe(tool: Tool | undefined, input: unknown): boolean {
  if (!tool) return false;
  try {
    const parsed = tool.inputSchema.safeParse(input);
    return parsed.success && tool.isConcurrencySafe(parsed.data) === true;
  } catch {
    return false;
  }
}
