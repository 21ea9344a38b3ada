/**
 * The user-facing side of a result, kept apart from the model-side text
 * (docs/harness-rules.md#model-and-display-sides). Text written FOR the model (tool_search listings, hook
 * notices) must not leak onto the user's screen, and the model must still
 * get the full text whatever the display shows. Two hard rules:
 *  - display never changes what the model receives;
 *  - an error is always shown in full (hiding it turns a visible failure
 *    into a silent one, which is worse than noise).
 */
import type { ToolResultBlock } from '../../providers/types.js';
import type { ResultDisplayMode, Tool } from '../tools/tool.js';
import type { PipelineCall } from './call.js';
import type { SettledCall } from './services.js';

export interface DisplaySide {
  mode: ResultDisplayMode;
  /** What the user sees: the output, a one-line summary, or nothing. */
  text: string;
}

export function displaySide(
  tool: Tool | undefined,
  name: string,
  input: unknown,
  content: string,
  isError: boolean,
  overrides: Readonly<Record<string, ResultDisplayMode>> | undefined,
): DisplaySide {
  if (isError) return { mode: 'full', text: content };
  const own = tool?.resultDisplayMode;
  let mode: ResultDisplayMode = overrides?.[name] ?? 'full';
  if (!overrides?.[name] && own !== undefined) {
    try {
      mode = typeof own === 'function' ? own(input) : own;
    } catch {
      mode = 'full'; // a broken self-report must not hide output
    }
  }
  if (mode === 'hidden') return { mode, text: '' };
  if (mode === 'summary') return { mode, text: `${name} completed (${content.length} characters of output for the model)` };
  return { mode: 'full', text: content };
}

/** The side-channel record for one settled call (built by the settlement exit's callback). */
export function settledCall(
  call: PipelineCall,
  result: ToolResultBlock,
  label: (name: string) => string,
  overrides: Readonly<Record<string, ResultDisplayMode>> | undefined,
): SettledCall {
  const display = displaySide(call.tool, call.block.name, call.input ?? call.block.input, result.content, result.is_error, overrides);
  return { toolUseId: call.block.id, tool: label(call.block.name), isError: result.is_error, display };
}
