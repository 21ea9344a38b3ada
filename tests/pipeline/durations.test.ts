/**
 * A tool's own execution time is logged apart from the pipeline's (hooks,
 * permission, validation, truncation), and per-tool latency uses it: the
 * slow-hook scenario (suites/faults/pipeline-slow-hook-latency.yaml, a 400 ms
 * PreToolUse hook before a fast read) run through the real harness, then the
 * report over its trace.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { findSection } from '../../src/analysis/report-model.js';
import { JsonlSink, MemorySink } from '../../src/events/index.js';
import { loadSuites } from '../../src/suites/load-suite.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';
import { tempDir } from '../analysis/fixtures.js';

const root = join(import.meta.dirname, '../..');
const source = mockModelSource();
afterAll(() => source.close());

describe('execution time apart from pipeline time', () => {
  it('keeps a 400 ms PreToolUse hook out of the read\'s execution_ms and out of its per-tool p95', async () => {
    const trace = join(tempDir(), 'slow-hook.jsonl');
    const sink = new JsonlSink(trace);
    const summary = await runSuite({ tasks: loadSuites([join(root, 'suites/faults/pipeline-slow-hook-latency.yaml')]), sink, source });
    sink.close();
    expect(summary.outcomes.map((o) => o.outcome)).toEqual(['passed']);

    const analysis = await analyzeTraces([trace], { cache: { enabled: false } });
    const success = (await import('node:fs')).readFileSync(trace, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.event === 'tool_success');
    expect(success.pipeline_ms).toBeGreaterThanOrEqual(390); // the hook's 400 ms is the pipeline's
    expect(success.execution_ms + success.pipeline_ms).toBeCloseTo(success.duration_ms, 2);
    expect(success.duration_ms - success.execution_ms).toBeGreaterThanOrEqual(390);
    const read = findSection(analysis, 'tool_latency')?.rows.find((r) => r.tool === 'read');
    // One call: every percentile is that call's execution time, not its 400+ ms duration.
    expect(read?.p95_ms_of_executed).toBeCloseTo(success.execution_ms, 2);
    expect(Number(read?.p95_ms_of_executed)).toBeLessThan(success.duration_ms - 390);
  }, 60_000);

  it('writes no execution time for a call refused before it ran', async () => {
    const sink = new MemorySink();
    const tasks = loadSuites([join(root, 'suites/faults/pipeline-slow-hook-latency.yaml')]).map((t) => ({ ...t, script: [{ tool_use: [{ name: 'read', input: { file_path: 42 } }] }, { text: 'x' }], expect: {} }));
    await runSuite({ tasks: tasks as typeof tasks, sink, source });
    const failure = sink.events().find((e) => e.event === 'tool_failure') as Record<string, unknown> | undefined;
    expect(failure).toMatchObject({ failure_kind: 'invalid_input' });
    expect(failure).not.toHaveProperty('execution_ms');
  }, 60_000);
});
