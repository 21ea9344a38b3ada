/**
 * A session whose harness threw after model calls (no result to take the
 * totals from) still ends with the turns and tokens its events recorded:
 * reports sum session_end's tokens, so a zero there would hide calls whose
 * model_response events are in the trace. The single-thread twin of the
 * worker-crash case in tests/cli/run-workers.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunEmitter } from '../../src/events/emitter.js';
import { MemorySink } from '../../src/events/sink.js';
import type { Model, ModelRequest } from '../../src/providers/types.js';
import { loadSuites } from '../../src/suites/load-suite.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import type { ModelSource } from '../../src/suites/model-source.js';
import { runTask } from '../../src/suites/run-task.js';
import { tempDir } from '../helpers/temp-dirs.js';

describe('session_end of a session whose harness threw', () => {
  it('carries the turns and the model_response tokens of its events', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'suite.yaml'),
      `suite: throws\ntasks:\n  - id: throws\n    prompt: go\n    tools: [read]\n    files: { a.txt: hi }\n    script:\n      - tool_use: [{ name: read, input: { file_path: a.txt } }]\n        usage: { input_tokens: 120, output_tokens: 30, cache_read_tokens: 7, cache_write_tokens: 3 }\n      - text: done\n`,
    );
    const [task] = loadSuites([join(dir, 'suite.yaml')]);
    const mock = mockModelSource();
    // The adapter breaks on the second turn's request (a bug outside callModel's error handling): runAgent throws.
    const source: ModelSource = {
      provider: mock.provider,
      modelName: mock.modelName,
      open: async (t, session) => {
        const opened = await mock.open(t, session);
        const inner = opened.model;
        const model = Object.create(inner) as Model;
        model.describeRequest = (request: ModelRequest) => {
          if (request.messages.length > 1) throw new Error('describeRequest broke');
          return inner.describeRequest(request);
        };
        return { model, close: () => opened.close() };
      },
    };
    const sink = new MemorySink();
    const outcome = await runTask(task!, { run: new RunEmitter(sink, 'r1'), source, sessionId: 'r1.0', tempDir: dir });
    await mock.close();
    expect(outcome).toMatchObject({ outcome: 'error', stop: 'harness_error', error: 'describeRequest broke' });
    const events = sink.events();
    const responses = events.filter((e) => e.event === 'model_response');
    expect(responses).toHaveLength(1);
    const end = events.find((e) => e.event === 'session_end');
    expect(end).toMatchObject({ outcome: 'error', turns: 1, input_tokens: 120, output_tokens: 30, cache_read_tokens: 7, cache_write_tokens: 3 });
    expect(outcome).toMatchObject({ turns: 1, tokens: 150 });
  });
});
