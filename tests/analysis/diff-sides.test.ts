/**
 * A diff states what each side read, refuses a side with no sessions (so
 * `--fail-on-regression` cannot pass on an empty or garbage candidate), and
 * `--strict` applies to both sides as in `report`.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/cli-io.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

function runTrace(dir: string, name: string, sessions: number, extra: string[] = []): string {
  const lines: string[] = [];
  for (let i = 0; i < sessions; i++) {
    const s = `${name}-${i}`;
    lines.push(line(ev.sessionStart(s)), line(ev.toolCall(s, 'bash', `b${i}`)), line(ev.toolSuccess(s, 'bash', `b${i}`, 100)), line(ev.sessionEnd(s, 'passed')));
  }
  return writeTrace(dir, `${name}.jsonl`, [...lines, ...extra]);
}

describe('faultline diff sides', () => {
  it('prints lines read, events used and lines quarantined for both sides, in every format', async () => {
    const dir = tempDir();
    const base = runTrace(dir, 'base', 3);
    const cand = runTrace(dir, 'cand', 2, ['not json']);
    const text = await cli(['diff', base, cand]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/base: .*base\.jsonl.*\n?.*lines read = events used \+ lines quarantined: 12 = 12 \+ 0/);
    expect(text.stdout).toMatch(/candidate: .*cand\.jsonl.*\n?.*lines read = events used \+ lines quarantined: 9 = 8 \+ 1/);
    const md = await cli(['diff', base, cand, '--md']);
    expect(md.stdout).toMatch(/9 = 8 \+ 1/);
    const json = JSON.parse((await cli(['diff', base, cand, '--json'])).stdout) as { sides: Record<string, { lines_read: number; events_used: number; lines_quarantined: number; sessions: number }> };
    expect(json.sides.base).toMatchObject({ lines_read: 12, events_used: 12, lines_quarantined: 0, sessions: 3 });
    expect(json.sides.candidate).toMatchObject({ lines_read: 9, events_used: 8, lines_quarantined: 1, sessions: 2 });
  });

  it('refuses an empty candidate with exit 1, --fail-on-regression or not', async () => {
    const dir = tempDir();
    const base = runTrace(dir, 'base', 3);
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    for (const flags of [['--fail-on-regression'], []]) {
      const r = await cli(['diff', base, empty, ...flags]);
      expect(r.stdout).not.toMatch(/Regressions/);
      expect(r.stderr).toMatch(/candidate .*has no sessions/);
      expect(r.code).toBe(1);
    }
  });

  it('refuses a candidate of random bytes, naming its quarantined lines', async () => {
    const dir = tempDir();
    const base = runTrace(dir, 'base', 3);
    const garbage = join(dir, 'garbage.jsonl');
    writeFileSync(garbage, randomBytes(4096));
    const r = await cli(['diff', base, garbage, '--fail-on-regression']);
    expect(r.stderr).toMatch(/candidate .*has no sessions.*\d+ quarantined/);
    expect(r.code).toBe(1);
  });

  it('refuses a base with no sessions too', async () => {
    const dir = tempDir();
    const onlyRunEvents = writeTrace(dir, 'base.jsonl', [line(ev.toolCall('s', 'bash', 'b'))]);
    const r = await cli(['diff', onlyRunEvents, runTrace(dir, 'cand', 2)]);
    expect(r.stderr).toMatch(/base .*has no sessions/);
    expect(r.code).toBe(1);
  });

  it('--strict exits 1 when either side quarantined a line', async () => {
    const dir = tempDir();
    const base = runTrace(dir, 'base', 3);
    const cand = runTrace(dir, 'cand', 3, ['{']);
    expect((await cli(['diff', base, cand])).code).toBe(0);
    const strict = await cli(['diff', base, cand, '--strict']);
    expect(strict.stdout).toMatch(/lines read/);
    expect(strict.stderr).toMatch(/--strict: candidate: 1 line quarantined/);
    expect(strict.code).toBe(1);
    expect((await cli(['diff', base, base, '--strict'])).code).toBe(0);
  });
});
