/**
 * What the harness needs to know about one MCP server (the suite layer builds
 * it from a task's `mcp_servers:`), and the limits of docs/harness-rules.md#mcp-limits as defaults.
 */

/** How calls of a server's tools are judged (docs/harness-rules.md#mcp-reconnect): per server, since their arguments cannot be judged. */
export type McpTrust = 'trusted' | 'ask' | 'deny';

export type McpTransportSpec =
  | {
      kind: 'stdio';
      /** Executable, spawned without a shell. */
      command: string;
      args: readonly string[];
      /** Added to the SDK's minimal inherited environment (HOME, LOGNAME, PATH, SHELL, TERM, USER), never the whole of ours. */
      env: Readonly<Record<string, string>>;
      cwd?: string;
    }
  | { kind: 'http'; url: string; headers: Readonly<Record<string, string>> };

export interface McpServerSpec {
  /** Already a valid name part (`^[A-Za-z0-9_-]{1,32}$`, no `__`): tools are `mcp__<name>__<tool>`. */
  name: string;
  transport: McpTransportSpec;
  trust: McpTrust;
  /** Tools left out of the request until tool_search loads them (default true, docs/harness-rules.md#deferred-tools, docs/harness-rules.md#mcp-limits). */
  deferred: boolean;
  /** `blocking`: the session waits for the first connect to settle before the first model request; `background`: it does not (calls meanwhile answer "still connecting"). */
  startup: 'blocking' | 'background';
  /** Per-call timeout; a progress notification starts it again. */
  callTimeoutMs: number;
  /** One connect attempt: spawn or HTTP handshake, initialize, tools/list. */
  connectTimeoutMs: number;
  /** Result limit in estimated tokens (results/token-estimate.ts). */
  maxOutputTokens: number;
  /** After a disconnect: attempts, the first after `baseDelayMs`, each delay doubled. */
  reconnect: { attempts: number; baseDelayMs: number };
}

/** sid-code's DEFAULT_MCP_TOOL_TIMEOUT: tighter than "almost forever", because a stuck external process would hang the session (docs/harness-rules.md#mcp-limits). */
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** cc's MAX_MCP_OUTPUT_TOKENS (docs/harness-rules.md#mcp-limits). */
export const DEFAULT_MAX_OUTPUT_TOKENS = 25_000;
/** MAX_MCP_DESCRIPTION_LENGTH (docs/harness-rules.md#mcp-limits): you do not control how long an outside server's descriptions are. */
export const MAX_DESCRIPTION_CHARS = 2_048;
export const DEFAULT_RECONNECT = { attempts: 5, baseDelayMs: 1_000 } as const;
/** Connects in flight at once (docs/harness-rules.md#mcp-limits): a stdio connect spawns a process, an HTTP one is only a socket. */
export const LOCAL_CONNECT_SLOTS = 3;
export const REMOTE_CONNECT_SLOTS = 20;
/** The longest delay a Node timer takes; a larger one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

export function defaultServerSpec(name: string, transport: McpTransportSpec): McpServerSpec {
  return {
    name,
    transport,
    trust: 'ask',
    deferred: true,
    startup: 'blocking',
    callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
    connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
    maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
    reconnect: { ...DEFAULT_RECONNECT },
  };
}
