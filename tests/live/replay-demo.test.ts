/** The shipped demo suite (every fault shape it has, both wires) recorded on the mock and replayed. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { captureIo, traceEvents } from './helpers.js';
import { tempDir } from '../helpers/temp-dirs.js';

function toolSequence(trace: string): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const e of traceEvents(trace)) {
    if (e.event === 'tool_call' || e.event === 'tool_success' || e.event === 'tool_failure') (out[String(e.task_id)] ??= []).push(`${String(e.event)}:${String(e.tool)}`);
    if (e.event === 'session_end') (out[String(e.task_id)] ??= []).push(`end:${String(e.outcome)}:${String(e.stop)}`);
  }
  return out;
}

describe('replaying the demo suite', () => {
  it('gives the same tool-call sequence, failures and outcomes as the recorded mock run', async () => {
    const dir = tempDir('faultline-replay-demo-');
    const recorded = join(dir, 'recorded.jsonl');
    const replayed = join(dir, 'replayed.jsonl');
    expect(await run(['run', 'suites/demo', '--record', join(dir, 'rec'), '--out', recorded], captureIo())).toBe(0);
    expect(await run(['run', 'suites/demo', '--replay', join(dir, 'rec'), '--out', replayed], captureIo())).toBe(0);
    const before = toolSequence(recorded);
    expect(Object.keys(before).length).toBeGreaterThanOrEqual(10);
    expect(toolSequence(replayed)).toEqual(before);
  });
});
