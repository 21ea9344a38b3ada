/**
 * MCP server and tool names are the user's private names (an internal
 * service's name is in every tool it offers), so a trace does not carry them
 * verbatim by default: the facade that writes events enforces it, leaving the
 * harness no way to log them raw by accident (the guide's telemetry rules:
 * tool names and paths are redacted in the facade).
 *
 * `mcp__<server>__<tool>` becomes `mcp__s_<8 hex>__t_<8 hex>` (sha256 of
 * each part), and an `mcp_server` event's `server` becomes `s_<8 hex>`, the
 * same hash, so reports still group by server and tool, join a server to
 * its tools and compare runs. Anywhere else in an event's text (an
 * expectation's id and detail) an MCP name is replaced the same way. A hash
 * is not reversible, but a name someone already knows can be recognised by
 * hashing it: that is what keeps runs comparable. `verbatim` (faultline run
 * --mcp-names verbatim) logs the names as they are.
 */
import { createHash } from 'node:crypto';
import { emitSessionTo, sessionEvent } from './session-parts.js';
import type { EventSink, SessionIds, SinkStats } from './sink.js';
import type { EventInput, FaultlineEvent } from './schemas.js';

export type McpNameMode = 'private' | 'verbatim';

const MCP_NAME = /\bmcp__([A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*)__([A-Za-z0-9_.-]+)/g;
/** The permission rule that trusts one server names it (harness/mcp/trust-rules.ts). */
const SERVER_RULE = /\bmcp_server:([A-Za-z0-9_-]+)/g;

const short = (kind: 's' | 't', name: string) => `${kind}_${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;

/** The private form of one server name. */
export function privateServerName(server: string): string {
  return short('s', server);
}

/** Every MCP tool name in a text in its private form; other text unchanged. */
export function privateMcpNames(text: string): string {
  if (!text.includes('mcp_')) return text;
  return text
    .replace(MCP_NAME, (_all, server: string, tool: string) => `mcp__${short('s', server)}__${short('t', tool)}`)
    .replace(SERVER_RULE, (_all, server: string) => `mcp_server:${short('s', server)}`);
}

function privateValue(value: unknown): unknown {
  if (typeof value === 'string') return privateMcpNames(value);
  if (Array.isArray(value)) return value.map(privateValue);
  return value;
}

/** True when some string of the event (or of an array in it) may hold an MCP name, or it is an mcp_server event. */
function mayNameMcp(event: EventInput): boolean {
  if (event.event === 'mcp_server') return true;
  for (const key in event) if (holdsMcp((event as Record<string, unknown>)[key])) return true;
  return false;
}

function fieldsHoldMcp(fields: object): boolean {
  for (const key in fields) if (holdsMcp((fields as Record<string, unknown>)[key])) return true;
  return false;
}

/** What privateValue would change: a string with `mcp_` in it, in the value or any array in it. */
function holdsMcp(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('mcp_');
  return Array.isArray(value) && value.some(holdsMcp);
}

/**
 * Whether a session's ids are free of MCP names: judged once per frozen ids object (a session's emitter hands
 * every event the same frozen one), and each time for any other.
 */
const idsJudged = new WeakMap<SessionIds, boolean>();

function idsHoldNoMcp(ids: SessionIds): boolean {
  let clean = idsJudged.get(ids);
  if (clean === undefined) {
    clean = !holdsMcp(ids.run_id) && !holdsMcp(ids.session_id) && !holdsMcp(ids.task_id);
    if (Object.isFrozen(ids)) idsJudged.set(ids, clean);
  }
  return clean;
}

/** One event with its MCP names made private (the event itself when it names none: most events, no copy). */
export function privateEvent<E extends EventInput>(event: E): E {
  if (!mayNameMcp(event)) return event;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) out[key] = privateValue(value);
  if (out.event === 'mcp_server' && typeof out.server === 'string') out.server = privateServerName(out.server);
  return out as E;
}

/** A sink that writes every event with its MCP names made private (the default of faultline run). */
export class PrivateNamesSink implements EventSink {
  constructor(private readonly target: EventSink) {}

  emit(event: EventInput): void {
    this.target.emit(privateEvent(event));
  }

  /**
   * The parts go on as they are when nothing in them may name MCP (the usual event); else the whole event made
   * private. Before a sink that writes lines the fields are serialized here, once, and the check is a scan of
   * that text: an MCP name in any string shows there as it is (JSON escapes none of its characters).
   */
  emitSession(name: string, ids: SessionIds, fields: object, body?: string): void {
    const idsClean = !holdsMcp(name) && idsHoldNoMcp(ids);
    if (idsClean && this.target.emitSession !== undefined) {
      const json = body ?? JSON.stringify(fields);
      if (!json.includes('mcp_')) return this.target.emitSession(name, ids, fields, json);
    } else if (idsClean && !fieldsHoldMcp(fields)) return emitSessionTo(this.target, name, ids, fields, body);
    this.target.emit(privateEvent(sessionEvent(name, ids, fields)));
  }

  flush(): void {
    this.target.flush();
  }

  close(): void {
    this.target.close();
  }

  stats(): SinkStats {
    return this.target.stats();
  }

  events(): readonly FaultlineEvent[] {
    return this.target.events();
  }
}

/** `sink` as the mode asks: wrapped (private, the default) or as it is. */
export function withMcpNames(sink: EventSink, mode: McpNameMode = 'private'): EventSink {
  return mode === 'verbatim' ? sink : new PrivateNamesSink(sink);
}
