/**
 * Colour follows what users set in CI: FORCE_COLOR colours output that is not
 * a TTY (CI logs render ANSI), FORCE_COLOR=0 and NO_COLOR turn it off, and a
 * TTY is coloured by default.
 */
import { describe, expect, it } from 'vitest';
import { wantsColor } from '../../src/report/color-choice.js';
import { cli } from './cli-io.js';

const ANSI = /\u001b\[\d+m/;
const trace = 'examples/traces/synthetic-small.jsonl';

describe('colour from the environment', () => {
  it('follows NO_COLOR, FORCE_COLOR and the TTY', () => {
    expect(wantsColor(false, {})).toBe(false);
    expect(wantsColor(true, {})).toBe(true);
    expect(wantsColor(true, { TERM: 'dumb' })).toBe(false);
    expect(wantsColor(false, { FORCE_COLOR: '1' })).toBe(true);
    expect(wantsColor(false, { FORCE_COLOR: '' })).toBe(true);
    expect(wantsColor(true, { FORCE_COLOR: '0' })).toBe(false);
    expect(wantsColor(true, { FORCE_COLOR: 'false' })).toBe(false);
    expect(wantsColor(true, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor(false, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
    expect(wantsColor(true, { NO_COLOR: '' })).toBe(true);
  });

  it('faultline report colours a non-TTY with FORCE_COLOR=1, and not without it', { timeout: 120_000 }, async () => {
    const forced = await cli(['report', trace], { env: { FORCE_COLOR: '1' } });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(ANSI);
    const plain = await cli(['report', trace], { env: {} });
    expect(plain.stdout).not.toMatch(ANSI);
  });
});
