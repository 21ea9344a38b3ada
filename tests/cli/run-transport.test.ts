/**
 * `faultline run --transport memory|http`: chooses how the SDK clients reach
 * the mock for a whole run; a task that pins `transport:` keeps its own and the
 * run names it; the flag is refused where there is no mock to reach.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';
import { cli } from './cli-io.js';

const SUITE = `suite: transports
tasks:
  - id: plain
    prompt: hi
    script: [{ text: hello }]
    expect: { answer: { equals: hello } }
  - id: socket-only
    prompt: hi
    transport: http
    transport_reason: its fault is a TCP reset
    script: [{ text: hello, fault: { reset: true, times: 1 } }]
    expect: { answer: { equals: hello } }
`;

describe('run --transport', () => {
  it('runs on either transport, and names the task that keeps its pinned one', async () => {
    const dir = tempDir();
    const file = join(dir, 'suite.yaml');
    writeFileSync(file, SUITE);
    for (const transport of ['memory', 'http'] as const) {
      const out = join(dir, `${transport}.jsonl`);
      const r = await cli(['run', file, '--transport', transport, '--out', out], { env: { NO_COLOR: '1', TMPDIR: dir } });
      expect(r.code, r.stderr).toBe(0);
      const note = '--transport memory: 1 task keeps the transport it pins: socket-only (http: its fault is a TCP reset)';
      if (transport === 'memory') expect(r.stderr).toContain(note);
      else expect(r.stderr).not.toContain('keeps the transport');
      // Both tasks passed: the reset was retried (over a socket, the pinned transport), the plain one answered.
      const ends = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; outcome?: string }).filter((e) => e.event === 'session_end');
      expect(ends.map((e) => e.outcome)).toEqual(['passed', 'passed']);
    }
  });

  it('is refused with a live provider or a replay (exit 2), and an unknown value is a usage error', async () => {
    const dir = tempDir();
    const file = join(dir, 'suite.yaml');
    writeFileSync(file, SUITE);
    const live = await cli(['run', file, '--provider', 'anthropic', '--model', 'm', '--transport', 'http'], { env: { NO_COLOR: '1', TMPDIR: dir, ANTHROPIC_API_KEY: 'x' } });
    expect([live.code, live.stderr]).toEqual([2, expect.stringContaining('--transport chooses how the SDK reaches the mock; --provider anthropic does not use the mock')]);
    const unknown = await cli(['run', file, '--transport', 'tcp'], { env: { NO_COLOR: '1', TMPDIR: dir } });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--transport.*tcp.*memory, http/);
  });
});
