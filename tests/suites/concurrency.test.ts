/**
 * Item 3 of issue 14 at CI scale: hundreds of sessions at once on the mock
 * lose nothing, on both transports (in-process, the default, and the loopback
 * server, which must also hold every connection). The full -j 1000 figure
 * (with peak memory) is in bench/throughput.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonlSink } from '../../src/events/sink.js';
import { sharedLoopbackServer } from '../../src/mock/loopback-model.js';
import { loadSuites } from '../../src/suites/load-suite.js';
import { mockModelSource, type MockTransport } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';

const dir = mkdtempSync(join(tmpdir(), 'faultline-conc-'));
const sources = { memory: mockModelSource(), http: mockModelSource({ transport: 'http' }) };
afterAll(async () => {
  await sources.memory.close();
  await sources.http.close();
  rmSync(dir, { recursive: true, force: true });
});

// More sessions at once than Node's default listen backlog (511), each opening its first connection together.
const CONCURRENCY = 600;

const SUITE = `suite: wide
tasks:
  - id: read-then-answer
    prompt: read it
    tools: [read]
    files: { f.txt: "hello\\n" }
    script:
      - tool_use: [{ name: read, input: { file_path: f.txt } }, { name: read, input: { file_path: f.txt } }]
      - rule:
          - when: { contains: hello }
            then: { text: "it says hello" }
          - then: { text: "no" }
    expect: { answer: { contains: hello } }
  - id: answer-only
    prompt: hi
    script: [{ text: done }]
`;

type Line = Record<string, unknown>;

describe.each<MockTransport>(['memory', 'http'])(`-j ${CONCURRENCY} on the mock, transport %s`, (transport) => {
  it('ends every session, loses no event (seq 1..N in file order), answers every tool_use (and the server holds every connection)', async () => {
    const source = sources[transport];
    const file = join(dir, `wide-${transport}.yaml`);
    writeFileSync(file, SUITE);
    const tasks = loadSuites([file]);
    const trace = join(dir, `wide-${transport}.jsonl`);
    const sink = new JsonlSink(trace, { truncate: true });
    const summary = await runSuite({ tasks, sink, source, concurrency: CONCURRENCY, repeat: CONCURRENCY / 2, tempDir: dir });
    sink.close();
    expect(summary.outcomes).toHaveLength(CONCURRENCY);
    expect(summary.passed).toBe(CONCURRENCY);

    const events = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
    // One writer: seq runs 1..N with no gap, in the order the lines are in the file.
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(sink.stats()).toMatchObject({ failedWrites: 0, invalid: 0 });
    const of = (name: string) => events.filter((e) => e.event === name);
    expect(of('session_start')).toHaveLength(CONCURRENCY);
    expect(of('session_end')).toHaveLength(CONCURRENCY);
    // Every tool_use the model sent became one call with one result (the mock answers a missing tool_result with a 400).
    const asked = of('model_response').reduce((n, e) => n + Number(e.tool_use_count), 0);
    expect(asked).toBe(CONCURRENCY);
    expect(of('tool_call')).toHaveLength(asked);
    expect(of('tool_success').length + of('tool_failure').length).toBe(asked);
    expect(of('model_error')).toEqual([]);

    if (transport === 'memory') return;
    const server = await sharedLoopbackServer();
    const connections = server.connections();
    expect(connections.peak).toBeGreaterThan(100);
    expect(connections.accepted).toBeGreaterThanOrEqual(connections.peak);
  }, 300_000);
});
