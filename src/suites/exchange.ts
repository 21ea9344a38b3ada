/**
 * The recorded form of one model exchange (record and replay share it): the
 * neutral request the harness sent and what came back, per task, repeat and
 * call. Never stored: API keys, headers, base URLs (the neutral form has
 * none), and secrets inside message text (redacted with the trace redactor).
 * The session's workspace path becomes a placeholder, so a replay in a fresh
 * temporary workspace compares equal.
 */
import { join } from 'node:path';
import { redactJson } from '../events/redact.js';
import type { ModelErrorKind } from '../events/labels.js';
import type { JsonSchema, Message, ModelRequest, ModelResponse, RequestInfo, ToolUseBlock } from '../providers/types.js';

export const RECORDING_VERSION = 1;
export const WORKSPACE_PLACEHOLDER = '<workspace>';
export const MANIFEST_FILE = 'manifest.json';

/** ModelRequest without the AbortSignal, in the order fields are compared (prefix first). */
export interface RecordedRequest {
  system: string | null;
  max_tokens: number;
  tools: Array<{ name: string; description: string; input_schema: JsonSchema }>;
  messages: Message[];
}

export interface RecordedError {
  kind: ModelErrorKind;
  message: string;
  status: number | null;
  retry_after_ms: number | null;
  retryable: boolean;
  should_retry: boolean | null;
}

export interface RecordedExchange {
  v: typeof RECORDING_VERSION;
  task: string;
  repeat: number;
  /** 1-based call number within the session (a retried turn has several calls). */
  seq: number;
  /** 1-based turn: assistant messages in the request + 1. */
  turn: number;
  provider: string;
  model: string;
  /** What describeRequest reported for `request`, so a replayed trace has the same model_request sizes. */
  info: RequestInfo;
  request: RecordedRequest;
  /**
   * The other requests the harness measured before sending this one (the
   * unloaded deferred tools alone, a history before compaction), by
   * requestKey: a replay answers those measurements as the provider did,
   * not with the size of the request sent. Absent in older recordings.
   */
  measured?: Array<{ key: string; info: RequestInfo }>;
  response?: ModelResponse;
  error?: RecordedError;
  /**
   * Positions in `response.content` of the tool_use blocks a streaming
   * adapter reported complete through `onToolUse`, in report order: replay
   * reports the same ones, so the streaming scheduler starts the same calls
   * early. Positions, not ids: a faulty model can repeat an id.
   */
  reported_tool_uses?: number[];
}

export interface RecordingManifest {
  v: typeof RECORDING_VERSION;
  provider: string;
  model: string;
  created: string;
  faultline_version: string;
}

/** Every string in a JSON value passed through `fn` (keys untouched). */
function mapStrings<T>(value: T, fn: (s: string) => string): T {
  if (typeof value === 'string') return fn(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn)])) as T;
  }
  return value;
}

/** Secrets redacted, workspace path replaced by the placeholder. */
export function scrub<T>(value: T, workspace: string): T {
  // Fields whose names say they hold a secret (`"api_key": …`) go whole; every string is redacted too.
  return redactJson(mapStrings(value, (s) => (workspace ? s.split(workspace).join(WORKSPACE_PLACEHOLDER) : s)));
}

/** The placeholder back to this session's workspace (for replayed responses the harness acts on). */
export function unscrub<T>(value: T, workspace: string): T {
  return mapStrings(value, (s) => s.split(WORKSPACE_PLACEHOLDER).join(workspace));
}

export function recordedRequest(request: ModelRequest, workspace: string): RecordedRequest {
  // JSON round trip: drops undefined fields so a fresh request and one read back from disk compare equal.
  const plain = JSON.parse(
    JSON.stringify({ system: request.system ?? null, max_tokens: request.maxTokens, tools: request.tools, messages: request.messages }),
  ) as RecordedRequest;
  return scrub(plain, workspace);
}

export function turnOf(request: ModelRequest): number {
  return request.messages.filter((m) => m.role === 'assistant').length + 1;
}

/** `<dir>/<task>/r<repeat>/` holds one session's exchanges. */
export function sessionDir(dir: string, task: string, repeat: number): string {
  return join(dir, task, `r${repeat}`);
}

/** Sorts by call number; the turn is in the name for people browsing the directory. */
export function exchangeFile(seq: number, turn: number): string {
  return `${String(seq).padStart(3, '0')}-turn-${turn}.json`;
}

/**
 * Positions of the reported blocks in the final content, each position used
 * once: the same object if the adapter reused it, else the same id, name and
 * input, else the first unused block with the same id.
 */
export function reportedPositions(response: ModelResponse, reported: ToolUseBlock[]): number[] {
  const used = new Set<number>();
  const out: number[] = [];
  const same = (a: ToolUseBlock, b: ToolUseBlock) => a.id === b.id && a.name === b.name && JSON.stringify(a.input) === JSON.stringify(b.input);
  const find = (test: (b: ToolUseBlock) => boolean) => response.content.findIndex((b, i) => !used.has(i) && b.type === 'tool_use' && test(b));
  for (const block of reported) {
    let index = find((b) => b === block);
    if (index < 0) index = find((b) => same(b, block));
    if (index < 0) index = find((b) => b.id === block.id);
    if (index >= 0) {
      used.add(index);
      out.push(index);
    }
  }
  return out;
}
