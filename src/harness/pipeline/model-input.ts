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
  return absentForNull(toolJsonSchema(tool), block.input);
}
