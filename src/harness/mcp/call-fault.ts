/**
 * Why an MCP tools/call produced no result, as a ToolFault: an `exception`
 * in events (never `tool_error`, which is a result the server flagged
 * `isError`), with model-facing text that says what happened and what to do
 * next, and a structured error_code. The kind is decided by what the SDK
 * rejected with (its McpError code, or a transport error), never by message
 * text.
 */
import { ToolFault } from '../tools/tool-fault.js';
import type { McpSdk } from './sdk.js';

const detailOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(/^(?:MCP error -?\d+: )+/, '').replace(/\s+/g, ' ').slice(0, 500);

export function closedMidCall(server: string, tool: string): ToolFault {
  return new ToolFault(
    'mcp_connection_closed',
    `The MCP server "${server}" closed the connection (it exited or crashed) while ${tool} was running, so the call has no result and may or may not have taken effect. ` +
      'The harness is reconnecting: check whether it took effect, and retry shortly if it is safe to repeat.',
  );
}

export function notConnected(server: string, tool: string, why: string): ToolFault {
  return new ToolFault('mcp_server_unavailable', `The MCP server "${server}" is not connected (${why}), so ${tool} was not run. Retry shortly, or use another approach.`);
}

/** `transportLost`: the error is the transport's own (HTTP unreachable), not an answer from the server. */
export function callFault(sdk: McpSdk, server: string, tool: string, error: unknown): { fault: ToolFault; transportLost: boolean } {
  if (error instanceof sdk.McpError) {
    const code = error.code;
    if (code === sdk.ErrorCode.ConnectionClosed) return { fault: closedMidCall(server, tool), transportLost: false };
    if (code === sdk.ErrorCode.RequestTimeout) {
      return { fault: new ToolFault('mcp_request_timeout', `The MCP request for ${tool} timed out in the client (${detailOf(error)}). Try a smaller request.`), transportLost: false };
    }
    const next =
      code === sdk.ErrorCode.InvalidParams
        ? 'The server rejected the arguments: check them against the tool\'s schema and call it again.'
        : code === sdk.ErrorCode.MethodNotFound
          ? 'The server does not offer this any more; search for another tool.'
          : 'The tool failed inside the server, not because of your input; retry later or use another approach.';
    return { fault: new ToolFault(`jsonrpc_${code}`, `The MCP server "${server}" answered ${tool} with JSON-RPC error ${code}: ${detailOf(error)}. ${next}`), transportLost: false };
  }
  if (error instanceof Error && error.name === 'ZodError') {
    return {
      fault: new ToolFault('mcp_bad_result', `The MCP server "${server}" answered ${tool} with something that is not a valid tools/call result, so there is no result to show. This is a fault of the server; use another approach.`),
      transportLost: false,
    };
  }
  // Anything else was thrown by the transport (fetch failed, stream error): the server could not be reached.
  return {
    fault: new ToolFault('mcp_connection_failed', `The MCP server "${server}" could not be reached for ${tool} (${detailOf(error)}); the call has no result. The harness reconnects; retry shortly.`),
    transportLost: true,
  };
}

/** A structured code for a failed connect attempt: the errno (ENOENT...), the JSON-RPC code, or the error's class. */
export function connectErrorCode(sdk: McpSdk | null, error: unknown): string {
  if (sdk && error instanceof sdk.McpError) return error.code === sdk.ErrorCode.ConnectionClosed ? 'closed' : `jsonrpc_${error.code}`;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && /^[A-Z0-9_]{1,32}$/i.test(code)) return code;
  return error instanceof Error ? error.name.slice(0, 64) : 'error';
}
