/**
 * A recording keeps, for every exchange, the size of the request that was
 * actually sent. With deferred tools in play the loop also measures the
 * unloaded definitions alone (what deferring saves); that tools-only
 * measurement is not the request and must not end up in the recording, nor
 * in the sizes a replay reports. Compaction measures the history before it
 * compacts: a replay must answer that measurement as recorded too, or it
 * compacts differently and diverges from its own recording.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { tempDir } from '../helpers/temp-dirs.js';

const dir = tempDir('faultline-rec-deferred-');

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await run(args, { stdout: (t) => void (out += t), stderr: (t) => void (out += t), env: { NO_COLOR: '1' }, cwd: dir, isTTY: false });
  return { code, out };
}

type Row = Record<string, unknown>;
const requests = (trace: string): Row[] =>
  readFileSync(trace, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row)
    .filter((e) => e.event === 'model_request');

// Two deferred tools, one loaded by tool_search: every request leaves at least one definition out.
const SUITE = [
  'tasks:',
  '  - id: deferred-load',
  '    prompt: Wait a moment, then say done.',
  '    tools: [read, sleep, ls]',
  '    deferred_tools: [sleep, ls]',
  '    script:',
  '      - tool_use: [{ name: tool_search, input: { query: "select:sleep" } }]',
  '      - tool_use: [{ name: sleep, input: { ms: 1 } }]',
  '      - text: done',
  '',
].join('\n');

describe.each([[[]], [['--stream']]])('recording a session with deferred tools (%j)', (flags: string[]) => {
  it('records the sizes of the requests sent, and a replay reports the same model_request sizes', { timeout: 120_000 }, async () => {
    const name = flags.length === 0 ? 'plain' : 'stream';
    const suite = join(dir, `${name}.yaml`);
    writeFileSync(suite, SUITE);
    const recording = join(dir, `rec-${name}`);
    const recordedTrace = join(dir, `${name}-recorded.jsonl`);
    const recorded = await cli(['run', suite, ...flags, '--record', recording, '--out', recordedTrace]);
    expect(recorded.code, recorded.out).toBe(0);

    const sent = requests(recordedTrace);
    expect(sent).toHaveLength(3);
    // The case under test: deferring is in play on every request.
    expect(sent.every((r) => (r.deferred_tools_bytes as number) > 0)).toBe(true);

    const session = join(recording, 'deferred-load', 'r0');
    const exchanges = readdirSync(session)
      .sort()
      .map((f) => JSON.parse(readFileSync(join(session, f), 'utf8')) as { turn: number; info: unknown; request: { tools: Array<{ name: string }> } });
    expect(exchanges.map((e) => e.turn)).toEqual([1, 2, 3]);
    exchanges.forEach((e, i) => {
      expect(e.info, `exchange ${i + 1}`).toEqual({ requestBytes: sent[i]!.request_bytes, toolsBytes: sent[i]!.tools_bytes, stream: sent[i]!.stream });
    });
    expect(exchanges.map((e) => e.request.tools.map((t) => t.name))).toEqual([
      ['read', 'tool_search'],
      ['read', 'tool_search', 'sleep'],
      ['read', 'tool_search', 'sleep'],
    ]);

    const replayedTrace = join(dir, `${name}-replayed.jsonl`);
    const replayed = await cli(['run', suite, '--replay', recording, '--out', replayedTrace]);
    expect(replayed.code, replayed.out).toBe(0);
    const sizes = (r: Row) => ({ turn: r.turn, request_bytes: r.request_bytes, tools_bytes: r.tools_bytes, deferred_tools_bytes: r.deferred_tools_bytes, stream: r.stream });
    expect(requests(replayedTrace).map(sizes)).toEqual(sent.map(sizes));
  });
});

describe('replaying a session that compacts its history', () => {
  it('compacts as the recorded run did and reports the same sizes', { timeout: 120_000 }, async () => {
    const suite = resolve('suites/faults/context-compaction.yaml');
    const filter = ['--filter', 'context-001-deferred-tools-forgotten-after-compaction'];
    const recording = join(dir, 'rec-compaction');
    const recordedTrace = join(dir, 'compaction-recorded.jsonl');
    const recorded = await cli(['run', suite, ...filter, '--record', recording, '--out', recordedTrace]);
    expect(recorded.code, recorded.out).toBe(0);
    const replayedTrace = join(dir, 'compaction-replayed.jsonl');
    const replayed = await cli(['run', suite, ...filter, '--replay', recording, '--out', replayedTrace]);
    expect(replayed.code, replayed.out).toBe(0);

    const facts = (trace: string) =>
      readFileSync(trace, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Row)
        .filter((e) => e.event === 'model_request' || e.event === 'context_compaction')
        .map(({ event, turn, request_bytes, tools_bytes, deferred_tools_bytes, prompt_tokens_estimate, tokens_before, tokens_after }) => ({
          event, turn, request_bytes, tools_bytes, deferred_tools_bytes, prompt_tokens_estimate, tokens_before, tokens_after,
        }));
    const before = facts(recordedTrace);
    expect(before.filter((e) => e.event === 'context_compaction').length).toBeGreaterThan(0);
    expect(facts(replayedTrace)).toEqual(before);
  });
});
