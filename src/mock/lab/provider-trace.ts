/**
 * A lab session written in the normal event contract, from the provider's
 * side of the wire: per conversation request a `model_request` (sizes, the
 * prefix hash of system + tools as sent), then `model_response` or
 * `model_error` as the mock answered; per tool_use the mock issued a
 * `tool_call`, and `tool_success` / `tool_failure` when a later request
 * carries its result. Those durations run from the response that issued the
 * call to the request that carried its result, so they include the harness's
 * own work and any sibling calls: they are marked `duration_source: 'turn'`
 * and never enter per-tool latency (docs/harness-rules.md#per-call-durations).
 */
import { createHash } from 'node:crypto';
import { toolLabel, type SessionEmitter } from '../../events/emitter.js';
import type { ModelErrorKind, StopClass } from '../../events/labels.js';
import { kindForStatus, streamErrorToModelCallError } from '../../providers/classify-error.js';
import { parseRetryAfterMs } from '../../providers/retry-after.js';
import { classifyAnthropicStop, classifyGeminiStop, classifyOpenAIStop, classifyResponsesStop, responsesStopReason } from '../../providers/stop-class.js';
import type { Usage } from '../../providers/types.js';
import { openaiFinishReason } from '../encode-openai.js';
import { responsesStatus } from '../encode-responses.js';
import { geminiFinishReason, PROMPT_BLOCKED } from '../encode-gemini.js';
import type { MockReply } from '../engine.js';
import type { RecordedRequest } from '../session.js';
import type { Wire } from '../wire-errors.js';
import { answeredWhole, looksLikeError, type Exchange, type SessionView } from './session-view.js';

export function prefixHashOf(system: string, toolsJson: string): string {
  return createHash('sha256').update(system).update('\u0000').update(toolsJson).digest('hex').slice(0, 16);
}

/** The stop reason as it went on the wire, and its class, as the harness's adapter would see it. */
function stopOnWire(wire: Wire, said: MockReply): { raw: string | null; cls: StopClass } {
  if (wire === 'anthropic') return { raw: said.stopReason, cls: classifyAnthropicStop(said.stopReason) };
  if (wire === 'gemini') {
    const raw = said.stopReason === PROMPT_BLOCKED ? 'PROMPT_SAFETY' : geminiFinishReason(said.stopReason);
    return { raw, cls: classifyGeminiStop(raw, said.content.some((b) => b.type === 'tool_use')) };
  }
  if (wire === 'openai') {
    const raw = openaiFinishReason(said.stopReason);
    return { raw, cls: classifyOpenAIStop(raw) };
  }
  const status = responsesStatus(said.stopReason);
  const raw = responsesStopReason(status.status, status.incomplete_details?.reason);
  return { raw, cls: classifyResponsesStop(raw, said.content.some((b) => b.type === 'tool_use')) };
}

function errorKind(record: RecordedRequest): { kind: ModelErrorKind; status: number | null } {
  const fault = record.fault;
  if (fault?.reset) return { kind: 'connection', status: null };
  if (fault?.cut_after_events !== undefined || fault?.stall_after_events !== undefined) return { kind: 'stream_interrupted', status: null };
  if (fault?.sse_error !== undefined && record.status === 200) return { kind: streamErrorToModelCallError(fault.sse_error.type ?? 'overloaded_error', '').kind, status: null };
  return { kind: kindForStatus(record.status), status: record.status };
}

function retryAfter(record: RecordedRequest): number | null {
  const headers = record.fault?.headers;
  if (!headers) return null;
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return parseRetryAfterMs({ get: (name) => lower.get(name) ?? null });
}

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

export interface ProviderSideTotals {
  turns: number;
  usage: Usage;
  model: string | null;
  tools: string[];
}

export function emitProviderSide(view: SessionView, emitter: SessionEmitter): ProviderSideTotals {
  const usage: Usage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
  const open = new Map<string, { at: number; answeredAt: number; label: ReturnType<typeof toolLabel>; declared: boolean }>();
  let turns = 0;
  let model: string | null = null;
  let tools: string[] = [];
  view.exchanges.forEach((exchange: Exchange, index) => {
    const { record, transcript, turn } = exchange;
    // Results first: they settle the calls of earlier turns before this request is logged.
    for (const m of transcript?.messages ?? []) {
      for (const r of m.results) {
        const call = open.get(r.id);
        if (!call) continue;
        open.delete(r.id);
        const common = { turn, ...call.label, tool_use_id: r.id, duration_ms: Math.max(0, record.receivedAt - call.answeredAt), duration_source: 'turn' as const };
        const { requested_tool: _requested, ...labelled } = common;
        if (looksLikeError(r, call.declared)) emitter.emit('tool_failure', { ...labelled, failure_kind: call.declared ? 'tool_error' : 'not_found', error_code: null });
        else emitter.emit('tool_success', { ...labelled, output_bytes: r.bytes, raw_bytes: r.bytes, empty: r.text.trim() === '', truncated: false, spilled: false });
      }
    }
    const system = transcript?.system ?? '';
    const toolsJson = transcript?.toolsJson ?? '';
    model ??= record.request?.model ?? null;
    if (tools.length === 0 && transcript) tools = transcript.tools.map((t) => t.name);
    emitter.emit('model_request', {
      turn,
      provider: record.wire,
      model: (record.request?.model ?? 'unknown').slice(0, 128),
      stream: record.request?.stream ?? false,
      messages_count: transcript?.messages.length ?? 0,
      tools_count: transcript?.tools.length ?? 0,
      tools_bytes: bytesOf(toolsJson),
      request_bytes: record.bodyBytes,
      prefix_hash: prefixHashOf(system, toolsJson),
    });
    if (!answeredWhole(record) || record.said === null) {
      const { kind, status } = errorKind(record);
      const willRetry = view.exchanges.slice(index + 1).some((e) => e.turn === turn);
      emitter.emit('model_error', { turn, error_kind: kind, status, attempt: Math.max(1, record.attempt), will_retry: willRetry, retry_after_ms: retryAfter(record) });
      return;
    }
    const said = record.said;
    const stop = stopOnWire(record.wire, said);
    const uses = said.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
    turns = Math.max(turns, turn);
    usage.input_tokens += said.usage.input_tokens;
    usage.output_tokens += said.usage.output_tokens;
    usage.cache_read_tokens += said.usage.cache_read_tokens;
    usage.cache_write_tokens += said.usage.cache_write_tokens;
    emitter.emit('model_response', {
      turn,
      duration_ms: Math.max(0, (record.answeredAt ?? record.receivedAt) - record.receivedAt),
      ttft_ms: null,
      stop_reason: stop.raw === null ? null : stop.raw.slice(0, 64),
      stop_class: stop.cls,
      tool_use_count: uses.length,
      ...said.usage,
    });
    const declared = new Set((transcript?.tools ?? []).map((t) => t.name));
    uses.forEach((use, i) => {
      // A call cut off by max_tokens is not a call the harness should run: it is left to the conformance check.
      if (said.cutToolInput && i === uses.length - 1) return;
      const label = toolLabel(use.name, (name) => declared.has(name));
      emitter.emit('tool_call', { turn, ...label, tool_use_id: use.id, batch: 0, concurrency_safe: false, source: 'builtin' });
      open.set(use.id, { at: index, answeredAt: record.answeredAt ?? record.receivedAt, label, declared: declared.has(use.name) });
    });
  });
  return { turns, usage, model, tools };
}
