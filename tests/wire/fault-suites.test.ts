/**
 * Every protocol fault scenario of suites/faults/protocol, on all THREE wires and
 * both transports (JSON and SSE) unless the task pins one, through the real
 * SDK clients against the loopback server. Each run must pass the task's own
 * expectations (the right model_error / stop_class events, nothing cut off
 * executed) and the invariants below: lost = 0, and every tool_use answered
 * by exactly one tool_result in the next message.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemorySink, type FaultlineEvent } from '../../src/events/index.js';
import { loadSuites, type LoadedTask } from '../../src/suites/load-suite.js';
import { taskWire } from '../../src/suites/wire-pins.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';

const tasks = loadSuites([join(import.meta.dirname, '../../suites/faults/protocol')]);

type Variant = { wire: 'anthropic' | 'openai' | 'responses'; stream: boolean };
/**
 * Failure modes a wire cannot express say so in the task (`wires:`, e.g. the
 * Responses API has no stop reason, so protocol-005's "end_turn with a pending
 * tool_use" does not exist there): such a task runs on the wires it lists.
 */
function variants(task: LoadedTask): Variant[] {
  const all = task.wire ? [task.wire] : (['anthropic', 'openai', 'responses'] as const);
  const wires = all.filter((w) => taskWire(task, w) === w);
  const streams = task.stream !== undefined ? [task.stream] : [false, true];
  return wires.flatMap((wire) => streams.map((stream) => ({ wire, stream })));
}

function toolUseIdsAnsweredOnce(events: readonly FaultlineEvent[]): boolean {
  // tool_call events carry every executed-or-refused call; each must be settled exactly once.
  const calls = events.filter((e) => e.event === 'tool_call');
  const settled = events.filter((e) => e.event === 'tool_success' || e.event === 'tool_failure');
  return calls.length === settled.length;
}

const matrix: Variant[] = [
  { wire: 'anthropic', stream: false },
  { wire: 'anthropic', stream: true },
  { wire: 'openai', stream: false },
  { wire: 'openai', stream: true },
  { wire: 'responses', stream: false },
  { wire: 'responses', stream: true },
];

describe('protocol fault scenarios over the loopback server', () => {
  it('covers every failure mode on all three wires', () => {
    const covered = new Set(tasks.flatMap((t) => variants(t).map((v) => v.wire)));
    expect([...covered].sort()).toEqual(['anthropic', 'openai', 'responses']);
    expect(tasks.length).toBeGreaterThanOrEqual(20);
  });

  describe.each(matrix)('wire $wire, stream $stream', ({ wire, stream }) => {
    const chosen = tasks.filter((t) => variants(t).some((v) => v.wire === wire && v.stream === stream));
    it(`passes every scenario that applies (${chosen.length})`, async () => {
      const sink = new MemorySink();
      const source = mockModelSource({ wire, stream });
      const summary = await runSuite({ tasks: chosen, sink, source, concurrency: 4 });
      await source.close();
      const failures = summary.outcomes
        .filter((o) => o.outcome !== 'passed')
        .map((o) => `${o.task.id}: ${o.error ?? o.expectations.filter((e) => !e.ok).map((e) => `${e.id} ${e.detail}`).join('; ')}`);
      expect(failures).toEqual([]);
      const bySession = new Map<string, FaultlineEvent[]>();
      for (const e of sink.events()) {
        if (!('session_id' in e) || typeof e.session_id !== 'string') continue;
        bySession.set(e.session_id, [...(bySession.get(e.session_id) ?? []), e]);
      }
      expect(bySession.size).toBe(chosen.length);
      for (const [sessionId, events] of bySession) {
        expect(toolUseIdsAnsweredOnce(events), sessionId).toBe(true);
        // The mock rejects a request whose tool_use lacks its tool_result with the real 400 (invalid_request);
        // only the scripted-400 scenario may see one.
        const taskId = events.find((e) => e.event === 'session_start')?.task_id ?? '';
        if (!String(taskId).startsWith('protocol-009-')) expect(events.filter((e) => e.event === 'model_error' && e.error_kind === 'invalid_request'), sessionId).toEqual([]);
      }
    });
  });

  /** Each defense or rule switched off: the scenarios that exercise it must fail (so they can). */
  const switchedOff: Array<[string, Partial<LoadedTask>, string[]]> = [
    ['harness retries (max_retries: 0)', { max_retries: 0 }, ['protocol-006-', 'protocol-006b-', 'protocol-007-', 'protocol-008-', 'protocol-008b-', 'protocol-011-', 'protocol-012-', 'protocol-013-']],
    ['cut_tool_call_guard', { disabled_defenses: ['cut_tool_call_guard'] }, ['protocol-001-', 'protocol-002-', 'protocol-019-']],
    ['stop_reason_fail_closed', { disabled_defenses: ['stop_reason_fail_closed'] }, ['protocol-003-', 'protocol-004-']],
    ['end_turn_fallthrough', { disabled_defenses: ['end_turn_fallthrough'] }, ['protocol-005-']],
  ];
  it.each(switchedOff)('fails the scenarios of %s when it is switched off', async (_name, override, prefixes) => {
    const chosen = tasks.filter((t) => prefixes.some((p) => t.id.startsWith(p))).map((t) => ({ ...t, ...override }) as LoadedTask);
    // The default wire (anthropic) can say every one of these.
    expect(chosen).toHaveLength(prefixes.length);
    const source = mockModelSource();
    const summary = await runSuite({ tasks: chosen, sink: new MemorySink(), source, concurrency: 4 });
    await source.close();
    expect(summary.outcomes.filter((o) => o.outcome === 'passed').map((o) => o.task.id)).toEqual([]);
  });
});
