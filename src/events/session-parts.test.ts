/**
 * A session's events reach a line-writing sink in parts (sink.ts emitSession): the lines must be
 * byte for byte what the whole event gave, through the private-names sink and the collecting sink.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CollectingSink } from '../suites/collecting-sink.js';
import { RunEmitter } from './emitter.js';
import { withMcpNames } from './private-names.js';
import { JsonlSink, type EventSink } from './sink.js';
import type { EventInput } from './schemas.js';

const dir = mkdtempSync(join(tmpdir(), 'faultline-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The same sink with its part-taking method hidden: every event arrives whole, as before the fast path. */
function wholeOnly(sink: EventSink): EventSink {
  return { emit: (e) => sink.emit(e), flush: () => sink.flush(), close: () => sink.close(), stats: () => sink.stats(), events: () => sink.events() };
}

type Emit = (session: ReturnType<RunEmitter['session']>) => void;
const EVENTS: Emit[] = [
  (s) => s.emit('defense_stats', { defense: 'denial_fuse', evaluated: 3, triggered: 1 }),
  (s) => s.emit('tool_call', { turn: 1, tool: 'mcp__acme_billing__refund', tool_use_id: 'toolu_"1"\n', requested_tool: null, batch: 0, concurrency_safe: true, source: 'mcp' } as never),
  (s) => s.emit('mcp_server', { server: 'acme_billing', state: 'connected' } as never),
  (s) => s.emit('session_start', { scenario: null, repeat: 0, defenses_armed: [], tools: ['read', 'mcp__acme__x'], deferred_tools: [], permission_mode: 'default', headless: true } as never),
  (s) => s.emit('model_response', { turn: 2, duration_ms: 1.5, ttft_ms: undefined, stop_reason: 'end_turn', stop_class: 'end_turn', tool_use_count: 0, input_tokens: null, output_tokens: 3, cache_read_tokens: 0, cache_write_tokens: 0 } as never),
  (s) => s.emit('session_end', {} as never),
  (s) => s.expectation('answer.0', false, 'answer was: sk-ant-abcdefghijklmnopqrstuvwxyz0123 ünïcode \u2028'),
];

function trace(name: string, wrap: (sink: EventSink) => EventSink, taskId: string): { lines: string; collected: EventInput[] } {
  const path = join(dir, `${name}.jsonl`);
  let t = 0;
  const jsonl = new JsonlSink(path, { truncate: true, now: () => ++t });
  const run = new RunEmitter(withMcpNames(wrap(jsonl)), 'run-1');
  const collecting = new CollectingSink(run.sink);
  const session = run.session('s-1', taskId, collecting);
  for (const emit of EVENTS) emit(session);
  jsonl.close();
  return { lines: readFileSync(path, 'utf8'), collected: collecting.collected };
}

describe('session events in parts', () => {
  it('write the same bytes as the whole events, MCP names made private either way', () => {
    for (const taskId of ['fix-typo', 'mcp__acme__task']) {
      const parts = trace(`parts-${taskId}`, (s) => s, taskId);
      const whole = trace(`whole-${taskId}`, wholeOnly, taskId);
      expect(parts.lines).toBe(whole.lines);
      expect(parts.lines.split('\n')).toHaveLength(EVENTS.length + 1);
      expect(parts.lines).not.toContain('acme');
      expect(parts.collected).toEqual(whole.collected);
    }
  });

  it('collect a copy of each event, so a caller changing its fields later changes nothing kept', () => {
    const collecting = new CollectingSink(withMcpNames(new JsonlSink(join(dir, 'copy.jsonl'), { truncate: true })));
    const session = new RunEmitter(collecting, 'run-1').session('s-1', 't');
    const fields = { defense: 'denial_fuse', evaluated: 1, triggered: 0 } as const;
    session.emit('defense_stats', fields);
    (fields as { evaluated: number }).evaluated = 99;
    expect(collecting.collected).toEqual([{ event: 'defense_stats', run_id: 'run-1', session_id: 's-1', task_id: 't', defense: 'denial_fuse', evaluated: 1, triggered: 0 }]);
  });
});
