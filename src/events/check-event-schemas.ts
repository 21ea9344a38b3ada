/** Events of MCP servers, the lab's conformance checks, snapshots and expectations (part of the event catalog, assembled in schemas.ts). */
import { z } from 'zod';
import { ConformanceCheck, ConformanceSeverity, McpState } from './labels.js';
import { nonNeg, ms, id, text, sessionScoped, turnScoped, toolScoped } from './schema-fields.js';

export const CHECK_EVENT_SCHEMAS = {
  /**
   * One MCP server's connection state (src/harness/mcp/README.md). duration_ms:
   * 0 for `connecting`; the attempt's time for `connected`/`failed`/`timeout`;
   * how long the connection was up for `disconnected`. The optional fields are
   * absent in traces written before them; each absence means "not reported".
   */
  mcp_server: z.strictObject({
    ...sessionScoped,
    event: z.literal('mcp_server'),
    server: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    state: McpState,
    duration_ms: ms(),
    /** Connection attempt: 1 for the first connect, 1..N for the reconnects after a disconnect (numbered again). */
    attempt: z.number().int().positive().optional(),
    /** On failed/timeout/disconnected: another attempt is scheduled (false = final for this session). */
    will_retry: z.boolean().optional(),
    /** On connected: tools the server listed (tools/list, every page). */
    tools_listed: nonNeg().optional(),
    /**
     * On connected after a reconnect or notifications/tools/list_changed: tools
     * added, removed or whose description or input schema differ from what the
     * session registered first (a reordered list alone changes nothing).
     */
    tools_changed: nonNeg().optional(),
    /** Structured reason on failed/timeout/disconnected (ENOENT, closed, jsonrpc_-32603...), never message text. */
    error_code: text(64).nullable().optional(),
  }),
  /** One protocol-conformance violation seen by the black-box lab, from the provider's side of the wire. */
  conformance: z.strictObject({
    ...turnScoped,
    event: z.literal('conformance'),
    check_id: ConformanceCheck,
    severity: ConformanceSeverity,
    /** Where the rule comes from (a link into docs/harness-rules.md, the API that rejects it); stable per check. */
    source: text(64),
    /** Bytes at stake for the checks that count them (schema bloat per session, an oversized result); null otherwise. */
    bytes: nonNeg().nullable(),
    tool_use_id: id().nullable(),
    /** Redacted, capped human text: what was seen, where (turn, byte range, tool). */
    detail: text(1024),
  }),
  /** One per check per lab session, at session end: how often the check looked (0 = not exercised) and how often it fired. */
  conformance_stats: z.strictObject({
    ...sessionScoped,
    event: z.literal('conformance_stats'),
    check_id: ConformanceCheck,
    severity: ConformanceSeverity,
    evaluated: nonNeg(),
    violations: nonNeg(),
  }),
  /**
   * The harness saved the files a changing call (write, edit, a bash command
   * with targets) may touch before it ran (`taken`), or wrote a saved
   * snapshot back (`restored`, the user rewinding a change they reject or a
   * failed edit). `turn`, `tool` and `tool_use_id` are those of the call that
   * was snapshotted, also on `restored`.
   */
  snapshot: z.strictObject({
    ...toolScoped,
    event: z.literal('snapshot'),
    snapshot_action: z.enum(['taken', 'restored']),
    /** The snapshot's name below the state directory (`.faultline/snapshots/<id>`); what a restore is asked for. */
    snapshot_id: text(64),
    /** Files copied (taken) or written back with their saved bytes (restored). */
    snapshot_files: nonNeg(),
    /** Paths that did not exist before the call (taken), or such paths removed again (restored). */
    snapshot_created: nonNeg(),
    /** Paths left out: over the size cap (taken), or refused because a component changed into a link or the entry is not a plain file (restored). */
    snapshot_skipped: nonNeg(),
  }),
  expectation: z.strictObject({
    ...sessionScoped,
    event: z.literal('expectation'),
    id: text(128),
    ok: z.boolean(),
    /** Redacted, capped human text (what was expected vs seen). */
    detail: text(1024),
  }),
} as const;
