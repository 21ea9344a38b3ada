/**
 * The input the stages judge, as the model meant it: a strict-mode `null` in
 * an optional field is read as "not provided" (providers/dialects/strict-nulls.ts).
 * One function for the scheduler's concurrency check and the call's stages,
 * so a call is never judged on two different inputs.
 */
import type { ToolUseBlock } from '../../providers/types.js';
import { absentForNull } from '../../providers/dialects/strict-nulls.js';
import type { Tool } from '../tools/tool.js';
import { toolJsonSchema } from '../tools/tool-schema.js';

export function modelInput(tool: Tool | undefined, block: ToolUseBlock): unknown {
  // Arguments that never parsed are answered as such by validation; nothing to read.
  if (!tool || block.inputError) return block.input;
  // Only a null can be read as absent: an input with none anywhere is returned as it is, without walking the
  // schema beside it (what absentForNull would return too, at the cost of a copy of each level it walks).
  if (!holdsNull(block.input, 0)) return block.input;
  return absentForNull(toolJsonSchema(tool), block.input);
}

/** True when a null is anywhere in the value (deeper than JSON tool inputs go, it answers true: the full read decides). */
function holdsNull(value: unknown, depth: number): boolean {
  if (value === null || depth > 32) return true;
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsNull(item, depth + 1)) return true;
    return false;
  }
  for (const key in value) if (holdsNull((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}
