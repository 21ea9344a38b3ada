/**
 * Every protocol fault scenario of suites/faults/protocol, on all FOUR wires,
 * JSON and SSE, unless the task pins one, through the real SDK clients, on
 * both mock transports (the in-process fetch and the loopback server; a task
 * pinning `transport: http` runs there in both). Each run must pass the task's own
 * expectations (the right model_error / stop_class events, nothing cut off
 * executed) and the invariants below: lost = 0, and every tool_use answered
 * by exactly one tool_result in the next message.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemorySink, type FaultlineEvent } from '../../src/events/index.js';
import { loadSuites, type LoadedTask } from '../../src/suites/load-suite.js';
import { mockModelSource, type MockTransport } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';

const tasks = loadSuites([join(import.meta.dirname, '../../suites/faults/protocol')]);

type Variant = { wire: 'anthropic' | 'openai' | 'responses' | 'gemini'; stream: boolean };
/**
 * A task runs on the wire it pins, else on every wire its fault exists on
 * (`wires`: e.g. the Responses API and Gemini have no stop reason that says
 * "end_turn with a pending tool_use", Gemini never sends half a call).
 */
function variants(task: LoadedTask): Variant[] {
  const wires = task.wire ? [task.wire] : (task.wires ?? (['anthropic', 'openai', 'responses', 'gemini'] as const));
  const streams = task.stream !== undefined ? [task.stream] : [false, true];
  return wires.flatMap((wire) => streams.map((stream) => ({ wire, stream })));
}

function toolUseIdsAnsweredOnce(events: readonly FaultlineEvent[]): boolean {
  // tool_call events carry every executed-or-refused call; each must be settled exactly once.
  const calls = events.filter((e) => e.event === 'tool_call');
  const settled = events.filter((e) => e.event === 'tool_success' || e.event === 'tool_failure');
  return calls.length === settled.length;
}

const matrix: Array<Variant & { transport: MockTransport }> = (['memory', 'http'] as const).flatMap((transport) =>
  (['anthropic', 'openai', 'responses', 'gemini'] as const).flatMap((wire) => [false, true].map((stream) => ({ wire, stream, transport }))),
);

describe('protocol fault scenarios on the mock', () => {
  it('covers every failure mode on all four wires', () => {
    const covered = new Set(tasks.flatMap((t) => variants(t).map((v) => v.wire)));
    expect([...covered].sort()).toEqual(['anthropic', 'gemini', 'openai', 'responses']);
    expect(tasks.length).toBeGreaterThanOrEqual(20);
  });

  describe.each(matrix)('wire $wire, stream $stream, transport $transport', ({ wire, stream, transport }) => {
    const chosen = tasks.filter((t) => variants(t).some((v) => v.wire === wire && v.stream === stream));
    it(`passes every scenario that applies (${chosen.length})`, async () => {
      const sink = new MemorySink();
      const source = mockModelSource({ wire, stream, transport });
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
    ['harness retries (max_retries: 0)', { max_retries: 0 }, ['protocol-006-', 'protocol-006b-', 'protocol-007-', 'protocol-008-', 'protocol-008b-', 'protocol-011-', 'protocol-012-', 'protocol-013-', 'protocol-023-', 'protocol-024-', 'protocol-025e-']],
    ['cut_tool_call_guard', { disabled_defenses: ['cut_tool_call_guard'] }, ['protocol-001-', 'protocol-002-', 'protocol-019-']],
    ['stop_reason_fail_closed', { disabled_defenses: ['stop_reason_fail_closed'] }, ['protocol-003-', 'protocol-004-', 'protocol-025b-']],
    ['end_turn_fallthrough', { disabled_defenses: ['end_turn_fallthrough'] }, ['protocol-005-']],
  ];
  it.each(switchedOff)('fails the scenarios of %s when it is switched off', async (_name, override, prefixes) => {
    const chosen = tasks.filter((t) => prefixes.some((p) => t.id.startsWith(p))).map((t) => ({ ...t, ...override }) as LoadedTask);
    // The default wire (anthropic) can say every one of these; the Gemini ones pin their wire.
    expect(chosen).toHaveLength(prefixes.length);
    const source = mockModelSource();
    const summary = await runSuite({ tasks: chosen, sink: new MemorySink(), source, concurrency: 4 });
    await source.close();
    expect(summary.outcomes.filter((o) => o.outcome === 'passed').map((o) => o.task.id)).toEqual([]);
  });
});
