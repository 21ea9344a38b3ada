import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import type { CliIo } from '../../src/cli/io.js';

function io(): CliIo & { out: string[] } {
  const out: string[] = [];
  return { out, stdout: (t) => void out.push(t), stderr: () => undefined, env: {}, cwd: process.cwd(), isTTY: false };
}

describe('faultline lint-tools', () => {
  it('passes the shipped suites with deferred tools (no resident/deferred pair shares 4+ leading characters)', async () => {
    const cli = io();
    expect(await run(['lint-tools', 'suites/faults', 'suites/controls'], cli)).toBe(0);
    expect(cli.out.join('')).toMatch(/[1-9]\d* tool sets? checked, 0 prefix collisions/);
  });

  it('reports a pair and exits 1 when the shared prefix reaches the minimum', async () => {
    const cli = io();
    expect(await run(['lint-tools', '--deferred', 'explode', '--min', '1'], cli)).toBe(1);
    expect(cli.out.join('')).toContain('resident "edit" and deferred "explode" share the prefix "e"');
  });
});
