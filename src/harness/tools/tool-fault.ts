/**
 * A tool that failed to produce a result, for a reason the tool knows and can
 * explain (an MCP server answered with a JSON-RPC error, exited mid-call, or
 * is not connected). It is an `exception` in events — the call has no result,
 * unlike `tool_error` where the tool ran and reported a problem — but the
 * model gets the tool's own explanation and next step instead of the generic
 * "internal error" text, and `code` is the event's error_code.
 */
export class ToolFault extends Error {
  constructor(
    /** Structured error_code (`jsonrpc_-32603`, `mcp_connection_closed`), never message text. */
    readonly code: string,
    /** The model-facing result text: what happened and what to do next. */
    readonly modelText: string,
    options?: { cause?: unknown },
  ) {
    super(modelText, options);
    this.name = 'ToolFault';
  }
}
