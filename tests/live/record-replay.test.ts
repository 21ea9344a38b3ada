/**
 * Record and replay: a run recorded against a provider replays with no key and
 * no server, giving the same tool calls and outcomes; a harness that sends
 * something else is stopped at the first differing turn and field.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { startCannedProvider, type CannedProvider } from './canned-provider.js';
import { captureIo, liveSuite, traceEvents } from './helpers.js';

const KEY = 'sk-ant-recording-secret-key-0123456789';

let server: CannedProvider;
beforeAll(async () => {
  server = await startCannedProvider();
});
afterAll(async () => {
  await server.close();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Per session (in order): the tools called, and how the session ended. */
function behaviour(trace: string): Array<{ task: unknown; repeat: unknown; tools: unknown[]; outcome: unknown; stop: unknown }> {
  const events = traceEvents(trace);
  const sessions = events.filter((e) => e.event === 'session_start');
  return sessions.map((s) => {
    const own = events.filter((e) => e.session_id === s.session_id);
    const end = own.find((e) => e.event === 'session_end')!;
    return { task: s.task_id, repeat: s.repeat, tools: own.filter((e) => e.event === 'tool_call').map((e) => e.tool), outcome: end.outcome, stop: end.stop };
  });
}

describe('record and replay', () => {
  it('replays a recorded live run with no key and no server: same tool calls, same outcomes', async () => {
    const { dir, suite } = liveSuite();
    const recording = join(dir, 'rec');
    const first = join(dir, 'recorded.jsonl');
    const io1 = captureIo({ ANTHROPIC_API_KEY: KEY });
    const args = ['run', suite, '--provider', 'anthropic', '--model', 'claude-test', '--base-url', server.root, '--repeat', '2', '--out', first, '--record', recording];
    expect(await run(args, io1)).toBe(0);
    const sent = server.requests.length;

    const second = join(dir, 'replayed.jsonl');
    const io2 = captureIo({});
    expect(await run(['run', suite, '--repeat', '2', '--replay', recording, '--out', second], io2)).toBe(0);
    expect(server.requests.length).toBe(sent);
    expect(behaviour(second)).toEqual(behaviour(first));
    expect(behaviour(first).map((b) => b.tools)).toEqual([['read'], ['read']]);
    const start = traceEvents(second).find((e) => e.event === 'run_start')!;
    expect(start).toMatchObject({ provider: 'replay', model: 'claude-test' });
  });

  it('stores no API key, header or base URL in the recording', async () => {
    const { dir, suite } = liveSuite();
    const recording = join(dir, 'rec');
    const io = captureIo({ ANTHROPIC_API_KEY: KEY });
    expect(await run(['run', suite, '--provider', 'anthropic', '--model', 'claude-test', '--base-url', server.root, '--record', recording, '--out', join(dir, 't.jsonl')], io)).toBe(0);
    const files = filesUnder(recording);
    expect(files.map((f) => f.slice(recording.length))).toEqual(['/manifest.json', '/read-note/r0/001-turn-1.json', '/read-note/r0/002-turn-2.json']);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(server.root);
      expect(text.toLowerCase()).not.toContain('x-api-key');
    }
  });

  it('stops a replay whose harness sends a different request, naming the task, turn and field', async () => {
    const recorded = liveSuite('hello live');
    const recording = join(recorded.dir, 'rec');
    const io1 = captureIo({ ANTHROPIC_API_KEY: KEY });
    expect(await run(['run', recorded.suite, '--provider', 'anthropic', '--model', 'claude-test', '--base-url', server.root, '--record', recording, '--out', join(recorded.dir, 'a.jsonl')], io1)).toBe(0);

    // Same task, different fixture: the tool result the harness sends back on turn 2 changes.
    const changed = liveSuite('hello changed');
    const io2 = captureIo({});
    const code = await run(['run', changed.suite, '--replay', recording, '--out', join(changed.dir, 'b.jsonl')], io2);
    expect(code).toBe(1);
    expect(io2.out()).toContain(
      'task read-note turn 2: messages[2].content[0].content differs: recorded "     1\\thello live" vs sent "     1\\thello changed"',
    );
  });

  it('reports a replay of a task that was never recorded as an error for that task', async () => {
    const { dir, suite } = liveSuite();
    const recording = join(dir, 'rec');
    const io1 = captureIo({ ANTHROPIC_API_KEY: KEY });
    expect(await run(['run', suite, '--provider', 'anthropic', '--model', 'claude-test', '--base-url', server.root, '--record', recording, '--out', join(dir, 'a.jsonl')], io1)).toBe(0);
    const io2 = captureIo({});
    expect(await run(['run', suite, '--replay', recording, '--repeat', '2', '--out', join(dir, 'b.jsonl')], io2)).toBe(1);
    expect(io2.out()).toContain('no recording for task read-note repeat 1');
  });

  it('refuses a directory that is not a recording', async () => {
    const { dir, suite } = liveSuite();
    const io = captureIo({});
    expect(await run(['run', suite, '--replay', dir], io)).toBe(2);
    expect(io.err()).toContain('is not a faultline recording');
  });
});
