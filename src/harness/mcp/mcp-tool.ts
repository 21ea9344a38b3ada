/**
 * An MCP server's tool as a harness Tool: it goes through the same registry
 * and the same pipeline as a built-in (docs/harness-rules.md#mcp-limits), with the MCP rules:
 *
 * - the name is `mcp__<server>__<tool>` (names.ts);
 * - the description is capped at 2,048 characters, with a marker saying so;
 * - the input schema the model sees is the server's JSON Schema; validation
 *   uses zod's reading of it (`z.fromJSONSchema`), or, when zod cannot read
 *   it, only "an object" and the server validates;
 * - never read-only for the permission chain: annotations are the server's
 *   claims about itself; a trusted server's `readOnlyHint` only lets calls
 *   run beside each other (concurrency), a decision taken per call (docs/harness-rules.md#call-level-concurrency);
 * - the result is limited in estimated tokens, not characters;
 * - the per-call timeout is the server's, started again by each progress
 *   notification (ToolContext.progress).
 *
 * The definition is fixed when the tool is registered; a later listing with
 * another description changes what is called, never what the model was shown
 * (the change is reported on mcp_server.tools_changed).
 */
import { z } from 'zod';
import type { JsonSchema } from '../../providers/types.js';
import type { Tool, ToolOutput } from '../tools/tool.js';
import { MAX_DESCRIPTION_CHARS, type McpServerSpec } from './config.js';
import { resultText, type McpCallResult } from './content.js';
import type { RemoteTool } from './remote-tool.js';

/** What a tool needs from its server's connection. */
export interface McpCallTarget {
  /** Throws a ToolFault when the call got no result (not connected, closed mid-call, JSON-RPC error). */
  /** `tool` is the server's name for it; `options.label` the name the model knows (for messages). */
  call(tool: string, args: Record<string, unknown>, options: McpCallOptions): Promise<McpCallResult>;
}

export interface McpCallOptions {
  signal: AbortSignal;
  onProgress: () => void;
  timeoutMs: number;
  label: string;
}

const CUT_MARKER = ` … [description cut at ${MAX_DESCRIPTION_CHARS} characters]`;

export function capDescription(text: string): string {
  return text.length <= MAX_DESCRIPTION_CHARS ? text : text.slice(0, MAX_DESCRIPTION_CHARS - CUT_MARKER.length) + CUT_MARKER;
}

/** The server's schema as sent: `$schema` is dropped by the registry; anything but an object schema is wrapped. */
function modelSchema(schema: Record<string, unknown>): JsonSchema {
  return schema.type === 'object' ? schema : { type: 'object', properties: {} };
}

const anyObject = z.record(z.string(), z.unknown());

function validator(schema: JsonSchema): z.ZodType<Record<string, unknown>> {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<Record<string, unknown>>;
  } catch {
    return anyObject; // the server validates; its error comes back as an error result
  }
}

export function createMcpTool(registeredName: string, remote: RemoteTool, spec: McpServerSpec, target: McpCallTarget): Tool<Record<string, unknown>> {
  const schema = modelSchema(remote.inputSchema);
  const description = capDescription(remote.description.trim() || `Tool "${remote.name.slice(0, 64)}" of the MCP server ${spec.name} (it gave no description).`);
  const concurrent = spec.trust === 'trusted' && remote.readOnlyHint;
  return {
    name: registeredName,
    description,
    inputSchema: validator(schema),
    jsonSchema: schema,
    readOnly: false,
    isConcurrencySafe: () => concurrent,
    timeoutMs: spec.callTimeoutMs,
    maxResultChars: Infinity, // limited in tokens instead
    maxResultTokens: spec.maxOutputTokens,
    async execute(input, context): Promise<ToolOutput> {
      const result = await target.call(remote.name, input, {
        signal: context.signal,
        onProgress: () => context.progress?.(),
        timeoutMs: spec.callTimeoutMs,
        label: registeredName,
      });
      const content = resultText(result);
      return result.isError ? { content, isError: true, errorCode: 'is_error' } : { content };
    },
  };
}
