/**
 * Stage ⑩: turn an execution outcome into the model-side tool_result text.
 * Empty output is said explicitly (docs/harness-rules.md#empty-output): an empty string reads to the
 * model like "nothing happened, try again".
 */
import type { Tool } from '../tools/tool.js';
import { ToolFault } from '../tools/tool-fault.js';
import type { ExecOutcome } from './execute.js';
import type { StageFailure } from './call.js';
import { cascadeAbortedFailure, cascadeSkippedFailure } from '../schedule/bash-cascade.js';

export interface SerializedSuccess {
  content: string;
  rawBytes: number;
  outputBytes: number;
  empty: boolean;
  truncated: boolean;
  spilled: boolean;
}

export function serializeSuccess(tool: Tool, raw: string, saidEmpty = false): SerializedSuccess {
  const empty = saidEmpty || raw.trim().length === 0;
  const content = raw.trim().length === 0 ? (tool.emptyText ?? `(${tool.name} completed with no output)`) : raw;
  return {
    content,
    rawBytes: Buffer.byteLength(raw),
    outputBytes: Buffer.byteLength(content),
    empty,
    truncated: false,
    spilled: false,
  };
}

/** The failure an execution outcome stands for (every non-ok kind). */
export function executionFailure(tool: Tool, outcome: Exclude<ExecOutcome, { kind: 'ok' }>): StageFailure {
  switch (outcome.kind) {
    case 'tool_error':
      return {
        kind: 'tool_error',
        errorCode: outcome.output.errorCode ?? null,
        message: outcome.output.content.trim() || `${tool.name} reported an error with no message.`,
      };
    case 'exception': {
      const error = outcome.error;
      if (error instanceof ToolFault) return { kind: 'exception', errorCode: error.code.slice(0, 64), message: error.modelText };
      const name = error instanceof Error ? error.name : 'Error';
      const detail = error instanceof Error ? error.message : String(error);
      return {
        kind: 'exception',
        errorCode: errorCodeOf(error) ?? name,
        message: `${tool.name} failed with an internal error (${name}: ${detail.slice(0, 500)}). This is a fault in the tool, not in your input; try a different approach.`,
      };
    }
    case 'timeout':
      return {
        kind: 'timeout',
        errorCode: 'timeout',
        message: `${tool.name} did not finish within ${outcome.timeoutMs} ms and was stopped. Try a smaller or faster operation.`,
      };
    case 'aborted':
      if (outcome.cause === 'cascade') return cascadeAbortedFailure(tool.name);
      return { kind: 'aborted', errorCode: 'user_abort', message: `${tool.name} was cancelled because the task was aborted.` };
    case 'cascade_skipped':
      return cascadeSkippedFailure(tool.name);
  }
}

/** A structured code carried by the error object itself (e.g. ENOENT), never parsed from its message. */
function errorCodeOf(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'string' && /^[A-Z0-9_]{1,32}$/i.test(code)) return code;
  }
  return null;
}
