/**
 * Stage ⑤: validate the input against the tool's zod schema (the same schema
 * the model was shown). Errors name the field and say what to send (docs/harness-rules.md#validation-errors).
 * Arguments that never parsed as JSON are reported as such, not as a schema
 * mismatch, so the model fixes the real problem. A deferred tool called
 * before loading never gets here: lookup answers it (lookup.ts).
 */
import type { ToolUseBlock } from '../../providers/types.js';
import type { Tool } from '../tools/tool.js';
import { toolJsonSchema } from '../tools/tool-schema.js';
import { describeIssues } from '../tools/validation-message.js';
import type { InputParse } from '../schedule/concurrency-safety.js';
import type { StageResult } from './call.js';

/** `input` is what the later stages see (a PreToolUse hook may have rewritten it); `known`: its parse, when already made. */
export function validateInput(tool: Tool, block: ToolUseBlock, input: unknown = block.input, known?: InputParse): StageResult<unknown> {
  if (block.inputError) {
    const what = block.inputError.reason === 'empty' ? 'were empty' : 'were not a valid JSON object';
    return {
      ok: false,
      failure: {
        kind: 'invalid_input',
        errorCode: `arguments_${block.inputError.reason}`,
        message: `The arguments for ${tool.name} ${what}, so it was not run. Send the arguments as one JSON object matching the ${tool.name} schema.`,
      },
    };
  }
  const parsed = known ?? tool.inputSchema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  // The advice names each field and what to send, from the schema the model was shown (docs/harness-rules.md#validation-errors, docs/harness-rules.md#two-path-divergence);
  // parsed again with the input kept in the issues, which only a failing call pays for.
  const issues = tool.inputSchema.safeParse(input, { reportInput: true }).error?.issues ?? parsed.error.issues;
  const advice = describeIssues(issues, toolJsonSchema(tool));
  return {
    ok: false,
    failure: {
      kind: 'invalid_input',
      errorCode: issues[0]?.code ?? 'invalid',
      message: `Invalid input for ${tool.name}, so it was not run.\n${advice.message}\nFix these fields and call ${tool.name} again.`,
    },
  };
}
