/**
 * session_start records what answered the session's model calls: the mock in
 * process (memory), over a loopback socket (http), or a recording played back
 * (replay); the report's run header names it. A trace from before the field
 * still validates, and a value outside the contract does not.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { goldenLines } from '../analysis/golden-trace.js';
import { tempDir } from '../helpers/temp-dirs.js';

const dir = tempDir('faultline-transport-');

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await run(args, { stdout: (t) => void (out += t), stderr: (t) => void (out += t), env: { NO_COLOR: '1' }, cwd: dir, isTTY: false });
  return { code, out };
}

function starts(trace: string): Array<Record<string, unknown>> {
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((e) => e.event === 'session_start');
}

describe('session_start.transport', () => {
  it.each([
    ['memory', []],
    ['http', ['--transport', 'http']],
  ])('a mock run over %s records it on every session, and the report names it', { timeout: 120_000 }, async (transport, flags) => {
    const trace = join(dir, `${transport}.jsonl`);
    const ran = await cli(['run', 'suites/demo/basics.yaml', ...flags, '--out', trace]);
    expect(ran.code, ran.out).toBe(0);
    const sessions = starts(trace);
    expect(sessions.length).toBeGreaterThan(1);
    expect(sessions.map((s) => s.transport)).toEqual(sessions.map(() => transport));
    const report = await cli(['report', trace]);
    expect(report.code, report.out).toBe(0);
    expect(report.out).toMatch(new RegExp(`provider mock · model mock-scripted[^\\n]* · transport ${transport}\\n`));
  });

  it('a task that pins `transport: http` keeps it in a memory run: the header lists both', { timeout: 120_000 }, async () => {
    const suite = join(dir, 'mixed.yaml');
    writeFileSync(suite, ['tasks:', '  - id: in-memory', '    prompt: hi', '    script: [{ text: hello }]', '  - id: on-a-socket', '    prompt: hi', '    transport: http', '    transport_reason: the fault is a real socket', '    script: [{ text: hello }]', ''].join('\n'));
    const trace = join(dir, 'mixed.jsonl');
    const ran = await cli(['run', suite, '--out', trace]);
    expect(ran.code, ran.out).toBe(0);
    expect(Object.fromEntries(starts(trace).map((s) => [s.task_id, s.transport]))).toEqual({ 'in-memory': 'memory', 'on-a-socket': 'http' });
    const report = await cli(['report', '--md', trace]);
    expect(report.out).toContain('transport http, memory');
  });

  it('a recording played back records replay', { timeout: 120_000 }, async () => {
    const recording = join(dir, 'recording');
    expect((await cli(['run', 'suites/demo/basics.yaml', '--filter', 'clean-multi-turn', '--record', recording, '--out', join(dir, 'recorded.jsonl')])).code).toBe(0);
    expect(starts(join(dir, 'recorded.jsonl')).map((s) => s.transport)).toEqual(['memory']);
    const trace = join(dir, 'replayed.jsonl');
    const ran = await cli(['run', 'suites/demo/basics.yaml', '--filter', 'clean-multi-turn', '--replay', recording, '--out', trace]);
    expect(ran.code, ran.out).toBe(0);
    expect(starts(trace).map((s) => s.transport)).toEqual(['replay']);
  });

  it('validate accepts a trace from before the field and refuses a transport outside the contract', async () => {
    const old = goldenLines();
    expect(old.some((l) => l.includes('"session_start"') && !l.includes('"transport"'))).toBe(true);
    writeFileSync(join(dir, 'old.jsonl'), old.join('\n') + '\n');
    const ok = await cli(['validate', join(dir, 'old.jsonl')]);
    expect(ok.code, ok.out).toBe(0);
    const bad = old.map((l) => (l.includes('"event":"session_start"') ? l.replace(/}$/, ',"transport":"carrier-pigeon"}') : l));
    expect(bad).not.toEqual(old);
    writeFileSync(join(dir, 'bad.jsonl'), bad.join('\n') + '\n');
    const refused = await cli(['validate', join(dir, 'bad.jsonl')]);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/bad\.jsonl:\d+.*transport/);
  });
});
