/**
 * Synthetic inputs for the importer benchmark, shaped like the real formats
 * (the hand-written fixtures in tests/importers/fixtures/ show each one):
 * Claude Code transcript directories, OTLP/JSON span lines, OpenAI Agents SDK
 * span lines and a pretty-printed τ-bench results array. Seeded, so a size
 * always gives the same bytes; written once and reused from bench/out/.
 */
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from '../analysis/generate.js';

const rng = prng;

const WORDS = 'the cart total is computed in src cart ts and checkout adds one to every total so the test fails'.split(' ');
const text = (r: () => number, bytes: number) => {
  let out = '';
  while (out.length < bytes) out += WORDS[Math.floor(r() * WORDS.length)] + (r() < 0.1 ? '\n' : ' ');
  return out.slice(0, bytes);
};
const hex = (r: () => number, n: number) => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');

class Out {
  private fd: number;
  private buf: string[] = [];
  private size = 0;
  bytes = 0;
  constructor(readonly path: string) {
    this.fd = openSync(`${path}.tmp`, 'w');
  }
  /** Lines here are ASCII, so a string's length is its byte count. */
  line(s: string): void {
    this.buf.push(s, '\n');
    this.size += s.length + 1;
    this.bytes += s.length + 1;
    if (this.size > 1 << 22) this.flush();
  }
  flush(): void {
    const chunk = this.buf.join('');
    writeSync(this.fd, chunk);
    this.buf = [];
    this.size = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
    renameSync(`${this.path}.tmp`, this.path);
  }
}

const TOOLS = ['Read', 'Bash', 'Grep', 'Edit', 'Glob', 'mcp__github__get_issue'];

/** One Claude Code session transcript of about `bytes` bytes. */
function claudeSession(out: Out, r: () => number, sessionId: string, bytes: number): void {
  const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/shop', sessionId, version: '2.0.14', gitBranch: 'main' };
  let t = Date.parse('2025-06-01T10:00:00.000Z');
  const ts = () => new Date((t += Math.floor(r() * 3000))).toISOString();
  out.line(JSON.stringify({ type: 'permission-mode', permissionMode: 'acceptEdits', sessionId }));
  out.line(JSON.stringify({ ...base, parentUuid: null, type: 'user', message: { role: 'user', content: text(r, 200) }, uuid: hex(r, 8), timestamp: ts(), permissionMode: 'acceptEdits' }));
  const start = out.bytes;
  while (out.bytes - start < bytes) {
    const msg = `msg_${hex(r, 20)}`;
    const calls = r() < 0.2 ? 2 : 1;
    const ids = Array.from({ length: calls }, () => `toolu_${hex(r, 24)}`);
    const usage = { input_tokens: Math.floor(r() * 50), cache_creation_input_tokens: Math.floor(r() * 500), cache_read_input_tokens: Math.floor(r() * 30000), output_tokens: Math.floor(r() * 400) };
    const line = (content: unknown[], stop: string | null) => JSON.stringify({ ...base, parentUuid: hex(r, 8), message: { id: msg, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content, stop_reason: stop, stop_sequence: null, usage }, requestId: `req_${hex(r, 16)}`, type: 'assistant', uuid: hex(r, 8), timestamp: ts() });
    out.line(line([{ type: 'text', text: text(r, 150) }], null));
    ids.forEach((id, i) => out.line(line([{ type: 'tool_use', id, name: TOOLS[Math.floor(r() * TOOLS.length)], input: { file_path: '/home/dev/shop/src/cart.ts', command: 'npm test' } }], i === ids.length - 1 ? 'tool_use' : null)));
    if (r() < 0.1) out.line(JSON.stringify({ ...base, type: 'attachment', attachment: { type: 'hook_success', hookName: 'PreToolUse:Bash', toolUseID: ids[0], hookEvent: 'PreToolUse', exitCode: 0, durationMs: Math.floor(r() * 80) }, uuid: hex(r, 8), timestamp: ts() }));
    // Results in any order, each in its own user line, some failed.
    for (const id of r() < 0.5 ? ids : [...ids].reverse()) {
      const failed = r() < 0.05;
      out.line(JSON.stringify({ ...base, parentUuid: hex(r, 8), type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: text(r, 500 + Math.floor(r() * 5000)), is_error: failed }] }, uuid: hex(r, 8), timestamp: ts() }));
    }
    if (r() < 0.02) out.line(JSON.stringify({ ...base, type: 'system', subtype: 'api_error', level: 'error', error: { status: 529 }, retryInMs: 500, retryAttempt: 1, maxRetries: 10, uuid: hex(r, 8), timestamp: ts() }));
  }
  out.line(JSON.stringify({ type: 'summary', summary: text(r, 40), leafUuid: hex(r, 8) }));
}

/** A directory of Claude Code transcripts totalling about `mb` MB (sessions of ~4 MB). */
export function claudeCodeDir(outDir: string, mb: number): string {
  const dir = join(outDir, `claude-code-${mb}mb`);
  const done = join(dir, '.complete');
  if (existsSync(done)) return dir;
  const project = join(dir, '-home-dev-shop');
  mkdirSync(project, { recursive: true });
  const r = rng(mb);
  let total = 0;
  for (let i = 0; total < mb * 1e6; i++) {
    const id = `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-a${hex(r, 3)}-${hex(r, 12)}`;
    const out = new Out(join(project, `${id}.jsonl`));
    claudeSession(out, r, id, 4e6);
    out.close();
    total += out.bytes;
  }
  const marker = new Out(done);
  marker.close();
  return dir;
}

/** OTLP/JSON, one ExportTraceServiceRequest of 100 spans per line (the Collector file exporter's layout). */
export function otelFile(outDir: string, spans: number): string {
  const path = join(outDir, `otel-${spans}.jsonl`);
  if (existsSync(path)) return path;
  mkdirSync(outDir, { recursive: true });
  const r = rng(spans);
  const out = new Out(path);
  const attr = (key: string, value: unknown) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : Array.isArray(value) ? { arrayValue: { values: value.map((v) => ({ stringValue: v })) } } : { stringValue: value } });
  let batch: unknown[] = [];
  let t = 1717236000000000000n;
  for (let i = 0; i < spans; ) {
    const trace = hex(r, 32);
    const agent = hex(r, 16);
    const span = (name: string, attrs: unknown[], parent?: string) => {
      const start = (t += BigInt(Math.floor(r() * 1e9)));
      const end = start + BigInt(Math.floor(r() * 2e9));
      i++;
      return { traceId: trace, spanId: hex(r, 16), ...(parent ? { parentSpanId: parent } : {}), name, kind: 1, startTimeUnixNano: String(start), endTimeUnixNano: String(end), attributes: attrs, status: {} };
    };
    batch.push({ ...span('invoke_agent Support', [attr('gen_ai.operation.name', 'invoke_agent'), attr('gen_ai.agent.name', 'Support')]), spanId: agent });
    for (let k = 0; k < 8; k++) {
      batch.push(span('chat gpt-4o', [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.request.model', 'gpt-4o'), attr('gen_ai.response.finish_reasons', ['tool_calls']), attr('gen_ai.usage.input_tokens', 1200), attr('gen_ai.usage.output_tokens', 45)], agent));
      batch.push(span('execute_tool get_order', [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', 'get_order'), attr('gen_ai.tool.call.id', `call_${hex(r, 12)}`)], agent));
    }
    if (batch.length >= 100) {
      out.line(JSON.stringify({ resourceSpans: [{ resource: { attributes: [attr('service.name', 'support-agent')] }, scopeSpans: [{ scope: { name: 'bench' }, spans: batch }] }] }));
      batch = [];
    }
  }
  out.close();
  return path;
}

/** OpenAI Agents SDK trace and span objects, one per line. */
export function agentsFile(outDir: string, items: number): string {
  const path = join(outDir, `openai-agents-${items}.jsonl`);
  if (existsSync(path)) return path;
  mkdirSync(outDir, { recursive: true });
  const r = rng(items);
  const out = new Out(path);
  let t = Date.parse('2025-05-20T09:00:00Z');
  const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '000+00:00');
  for (let i = 0; i < items; ) {
    const trace = `trace_${hex(r, 32)}`;
    out.line(JSON.stringify({ object: 'trace', id: trace, workflow_name: 'Billing support', group_id: null, metadata: null }));
    i++;
    for (let k = 0; k < 10; k++, i += 2) {
      const s = (t += Math.floor(r() * 2000));
      out.line(JSON.stringify({ object: 'trace.span', id: `span_${hex(r, 24)}`, trace_id: trace, parent_id: null, started_at: iso(s), ended_at: iso(s + 900), span_data: { type: 'response', response_id: `resp_${hex(r, 24)}`, usage: { input_tokens: 800, input_tokens_details: { cached_tokens: 512 }, output_tokens: 30 } }, error: null }));
      out.line(JSON.stringify({ object: 'trace.span', id: `span_${hex(r, 24)}`, trace_id: trace, parent_id: null, started_at: iso(s + 1000), ended_at: iso(s + 1300), span_data: { type: 'function', name: 'lookup_account', input: '{"email": "ana@example.com"}', output: text(r, 300), mcp_data: null }, error: r() < 0.05 ? { message: 'Error running tool (non-fatal)', data: null } : null }));
    }
  }
  out.close();
  return path;
}

/** τ-bench results as run.py writes them: one pretty-printed JSON array. */
export function tauFile(outDir: string, results: number): string {
  const path = join(outDir, `tau-bench-${results}.json`);
  if (existsSync(path)) return path;
  mkdirSync(outDir, { recursive: true });
  const r = rng(results);
  const out = new Out(path);
  out.line('[');
  for (let i = 0; i < results; i++) {
    const traj: unknown[] = [{ role: 'system', content: text(r, 2000) }, { role: 'user', content: text(r, 200) }];
    for (let k = 0; k < 12; k++) {
      const id = `call_${hex(r, 12)}`;
      traj.push({ content: null, role: 'assistant', tool_calls: [{ function: { arguments: '{"order_id": "#W2378156"}', name: 'get_order_details' }, id, type: 'function' }], function_call: null });
      traj.push({ role: 'tool', tool_call_id: id, name: 'get_order_details', content: text(r, 400) });
    }
    const result = JSON.stringify({ task_id: i, reward: r() < 0.6 ? 1.0 : 0.0, info: { source: 'user' }, traj, trial: 0 }, null, 2);
    out.line(result.split('\n').map((l) => `  ${l}`).join('\n') + (i < results - 1 ? ',' : ''));
  }
  out.line(']');
  out.close();
  return path;
}
