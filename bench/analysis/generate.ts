/**
 * Synthetic trace generator for the analysis benchmark. Deterministic (seeded
 * PRNG) and contract-valid: a realistic mix of tools with different latency
 * distributions, every failure kind, permission and hook events, model errors
 * with retries, defense triggers/stats, and some sessions with lost calls.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { EXECUTION_FAILURE_KINDS, PRE_EXECUTION_FAILURE_KINDS } from '../../src/events/labels.js';

/** mulberry32: small, fast, good enough for synthetic data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ToolProfile {
  name: string;
  /** Median latency (ms) and spread of a log-normal. */
  median: number;
  sigma: number;
  failRate: number;
  source: 'builtin' | 'mcp' | 'deferred';
}

const TOOLS: ToolProfile[] = [
  { name: 'read', median: 4, sigma: 0.6, failRate: 0.03, source: 'builtin' },
  { name: 'grep', median: 25, sigma: 0.9, failRate: 0.08, source: 'builtin' },
  { name: 'glob', median: 12, sigma: 1.4, failRate: 0.02, source: 'builtin' },
  { name: 'bash', median: 900, sigma: 1.2, failRate: 0.2, source: 'builtin' },
  { name: 'edit', median: 8, sigma: 0.5, failRate: 0.1, source: 'builtin' },
  { name: 'write', median: 6, sigma: 0.4, failRate: 0.04, source: 'builtin' },
  { name: 'web_fetch', median: 450, sigma: 0.8, failRate: 0.12, source: 'deferred' },
  { name: 'mcp__docs__search', median: 220, sigma: 1.0, failRate: 0.15, source: 'mcp' },
];
const DEFENSES = ['identical_call_loop', 'low_yield_spin', 'denial_fuse', 'spill_read_loop', 'dangerous_command_block', 'token_budget'] as const;
const FAILURE_KINDS = [...PRE_EXECUTION_FAILURE_KINDS, ...EXECUTION_FAILURE_KINDS];
const STOP_CLASSES = ['end_turn', 'max_tokens', 'null', 'unknown', 'refusal'] as const;
const ERROR_KINDS = ['rate_limited', 'overloaded', 'server_error', 'timeout', 'stream_interrupted'] as const;

export interface GenerateOptions {
  events: number;
  seed?: number;
  runId?: string;
}

/** Yields JSONL lines (without newline) until at least `events` lines were produced, ending on a whole session. */
export function* generateLines(options: GenerateOptions): Generator<string> {
  const rnd = prng(options.seed ?? 42);
  const runId = options.runId ?? 'bench-run';
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const logNormal = (median: number, sigma: number): number => {
    const u = Math.max(rnd(), 1e-12);
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
    return Math.round(median * Math.exp(sigma * z) * 1000) / 1000;
  };
  let seq = 0;
  let ts = 1_750_000_000_000;
  let produced = 0;
  const line = (fields: Record<string, unknown>): string => {
    produced++;
    ts += Math.floor(rnd() * 50);
    return JSON.stringify({ v: 1, ts, seq: ++seq, run_id: runId, ...fields });
  };
  yield line({ event: 'run_start', suite: 'bench', provider: 'mock', model: 'mock-1', faultline_version: '0.1.0', node_version: 'v20', config_hash: 'abc', tasks: 0 });
  let s = 0;
  while (produced < options.events) {
    s++;
    const session_id = `s${s}`;
    const task_id = `task-${s % 500}`;
    const env = { session_id, task_id };
    const armed = DEFENSES.filter(() => rnd() < 0.7);
    const lossy = rnd() < 0.01; // some sessions lose a call mid-execution
    yield line({ event: 'session_start', ...env, scenario: null, repeat: 0, defenses_armed: armed, tools: TOOLS.map((t) => t.name), deferred_tools: ['web_fetch'], permission_mode: 'default', headless: true });
    const turns = 1 + Math.floor(rnd() * 8);
    let callId = 0;
    const triggers = new Map<string, number>();
    for (let turn = 1; turn <= turns; turn++) {
      const t = { ...env, turn };
      yield line({ event: 'model_request', ...t, provider: 'mock', model: 'mock-1', stream: true, messages_count: turn * 2, tools_count: 8, tools_bytes: 4096, request_bytes: 9000 + turn * 800, prefix_hash: 'p1' });
      if (rnd() < 0.05) {
        yield line({ event: 'model_error', ...t, error_kind: pick(ERROR_KINDS), status: 529, attempt: 1, will_retry: true, retry_after_ms: 1000 });
      }
      const last = turn === turns;
      const calls = last ? 0 : 1 + Math.floor(rnd() * 3);
      const stopClass = last ? pick(STOP_CLASSES) : 'tool_use';
      yield line({ event: 'model_response', ...t, duration_ms: logNormal(1500, 0.5), ttft_ms: logNormal(400, 0.4), stop_reason: stopClass === 'null' ? null : stopClass, stop_class: stopClass, tool_use_count: calls, input_tokens: 2000 + turn * 500, output_tokens: 300, cache_read_tokens: turn > 1 ? 1800 : 0, cache_write_tokens: turn === 1 ? 1800 : 0 });
      for (let c = 0; c < calls; c++) {
        const profile = pick(TOOLS);
        const tool_use_id = `tu_${s}_${++callId}`;
        const tc = { ...t, tool: profile.name, tool_use_id };
        yield line({ event: 'tool_call', ...tc, requested_tool: null, batch: turn, concurrency_safe: profile.name !== 'bash', source: profile.source });
        const prompt = rnd() < 0.1;
        const denied = rnd() < 0.02;
        yield line({ event: 'permission_decision', ...tc, decision: denied ? 'deny' : prompt ? 'ask' : 'allow', source: denied ? 'deny_rule' : prompt ? 'user' : pick(['allow_rule', 'read_only', 'mode'] as const), needed_prompt: prompt, rule_id: null });
        if (rnd() < 0.2) yield line({ event: 'hook', ...tc, hook: 'pre_tool_use', effect: 'none', duration_ms: 1 });
        if (lossy && c === 0 && turn === 1) continue; // lost: no success, no failure
        if (denied) {
          yield line({ event: 'tool_failure', ...tc, duration_ms: 0, failure_kind: 'permission_denied', error_code: null });
        } else if (rnd() < profile.failRate) {
          const kind = pick(FAILURE_KINDS);
          const pre = (PRE_EXECUTION_FAILURE_KINDS as readonly string[]).includes(kind);
          yield line({ event: 'tool_failure', ...tc, duration_ms: pre ? 0 : logNormal(profile.median, profile.sigma), failure_kind: kind, error_code: kind === 'tool_error' ? 'exit_1' : null });
        } else {
          yield line({ event: 'tool_success', ...tc, duration_ms: logNormal(profile.median, profile.sigma), output_bytes: Math.floor(rnd() * 20000), raw_bytes: Math.floor(rnd() * 40000), empty: rnd() < 0.05, truncated: rnd() < 0.03, spilled: rnd() < 0.01 });
        }
        // token_budget is armed but never evaluated (unwired); spill_read_loop is evaluated but never fires (unreached).
        const fireable = armed.filter((d) => d !== 'token_budget' && d !== 'spill_read_loop');
        if (fireable.length > 0 && rnd() < 0.03) {
          const defense = pick(fireable);
          triggers.set(defense, (triggers.get(defense) ?? 0) + 1);
          yield line({ event: 'defense_trigger', ...t, defense, action: 'hint', tool: profile.name });
        }
      }
    }
    for (const defense of armed) {
      // one defense is wired but never evaluated, to exercise the `unwired` triage
      const evaluated = defense === 'token_budget' ? 0 : turns * 3;
      yield line({ event: 'defense_stats', ...env, defense, evaluated, triggered: triggers.get(defense) ?? 0 });
    }
    const passed = rnd() < 0.8;
    yield line({ event: 'expectation', ...env, id: 'done', ok: passed, detail: passed ? 'ok' : 'expected tests to pass' });
    yield line({ event: 'session_end', ...env, outcome: passed ? 'passed' : 'failed', stop: 'end_turn', turns, input_tokens: turns * 3000, output_tokens: turns * 300, cache_read_tokens: (turns - 1) * 1800, cache_write_tokens: 1800, duration_ms: turns * 2500 });
  }
  yield line({ event: 'run_end', sessions: s, passed: 0, failed: 0, errored: 0, aborted: 0, duration_ms: 1 });
}

/** Writes the lines to `path` in large batches; returns the number of lines written. */
export function writeTrace(path: string, options: GenerateOptions): number {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'w');
  let batch: string[] = [];
  let count = 0;
  for (const l of generateLines(options)) {
    batch.push(l);
    count++;
    if (batch.length >= 10_000) {
      writeSync(fd, batch.join('\n') + '\n');
      batch = [];
    }
  }
  if (batch.length > 0) writeSync(fd, batch.join('\n') + '\n');
  closeSync(fd);
  return count;
}
