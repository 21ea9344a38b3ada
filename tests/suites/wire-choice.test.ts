/**
 * A task whose fault exists only on some wires says so (`wires:`), and a run
 * forced onto another wire (`faultline run --wire responses`) runs it where
 * its fault exists instead of failing for a reason that is not the harness's:
 * protocol-005 (end_turn with a tool call pending) cannot happen on the
 * Responses API, which has no stop reason.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemorySink } from '../../src/events/index.js';
import { loadSuites } from '../../src/suites/load-suite.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';
import { pinnedWireNote, taskWire } from '../../src/suites/wire-pins.js';

const file = join(import.meta.dirname, '../../suites/faults/protocol/005-end-turn-pending-tool-use.yaml');
const source = mockModelSource({ wire: 'responses' });
afterAll(() => source.close());

describe('the wire a task runs on', () => {
  it('is the asked wire where the fault exists, the first listed one elsewhere, the pinned one always', () => {
    expect(taskWire({ wires: ['anthropic', 'openai'] }, 'openai')).toBe('openai');
    expect(taskWire({ wires: ['anthropic', 'openai'] }, 'responses')).toBe('anthropic');
    expect(taskWire({ wires: ['openai'] })).toBe('openai');
    expect(taskWire({}, 'responses')).toBe('responses');
    expect(taskWire({ wire: 'openai', wires: ['anthropic'] }, 'responses')).toBe('openai');
  });

  it('passes protocol-005 under --wire responses, run on a wire where its fault exists, and says so', async () => {
    const tasks = loadSuites([file]);
    expect(tasks[0]!.wires).toEqual(['anthropic', 'openai']);
    const sink = new MemorySink();
    const summary = await runSuite({ tasks, sink, source });
    expect(summary.outcomes.map((o) => [o.task.id, o.outcome])).toEqual([['protocol-005-end-turn-pending-tool-use', 'passed']]);
    expect(sink.events().filter((e) => e.event === 'model_request').every((e) => e.provider === 'anthropic')).toBe(true);
    expect(pinnedWireNote(tasks, 'responses')).toBe('--wire responses: 1 task runs on the wire it pins or where its fault exists: protocol-005-end-turn-pending-tool-use (anthropic)');
  }, 60_000);
});
