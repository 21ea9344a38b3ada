/**
 * Per-tool result size limits in characters (docs/harness-rules.md#truncate-and-spill). Output over its
 * tool's limit is cut to head 70% / tail 30% and spilled to a file.
 *
 * `read` is unlimited ON PURPOSE: it limits itself in lines, and spilling it
 * would loop — "full output saved to X, read it" makes the model read X,
 * which is over the limit, spills again, and so on (docs/harness-rules.md#truncate-and-spill, docs/harness-rules.md#combined-mechanisms). The
 * `spill_read_loop` defense is this exemption; switched off, read gets the
 * default limit and the loop appears.
 */
import type { Tool } from '../tools/tool.js';

export const DEFAULT_RESULT_LIMIT = 30_000;

export const TOOL_RESULT_LIMITS: Readonly<Record<string, number>> = {
  read: Infinity,
  edit: Infinity, // edit/write confirmations are short
  write: Infinity,
  bash: 30_000,
  grep: 30_000,
  glob: 30_000,
  ls: 30_000,
};

export function resultLimit(tool: Tool, readExempt: boolean): number {
  if (tool.name === 'read' && !readExempt) return DEFAULT_RESULT_LIMIT;
  return tool.maxResultChars ?? TOOL_RESULT_LIMITS[tool.name] ?? DEFAULT_RESULT_LIMIT;
}
