/** The install cache: one complete copy however many files ask at once, reused afterwards, exact versions only. */
import { readdirSync, statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installCli } from './cli-install.js';
import { tempDir } from './temp-dirs.js';

describe('installCli', () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env['FAULTLINE_CLI_CACHE'];
    process.env['FAULTLINE_CLI_CACHE'] = tempDir('cli-cache-');
  });
  afterEach(() => {
    if (saved === undefined) delete process.env['FAULTLINE_CLI_CACHE'];
    else process.env['FAULTLINE_CLI_CACHE'] = saved;
  });

  it('installs a pinned package once, even when asked twice at once, and reuses it', async () => {
    const [a, b] = await Promise.all([installCli('is-number', '7.0.0'), installCli('is-number', '7.0.0')]);
    expect(a.dir).toBe(b.dir);
    const cache = process.env['FAULTLINE_CLI_CACHE'] ?? '';
    // No staging folder is left behind by the install that lost the race.
    expect(readdirSync(cache)).toEqual(['is-number@7.0.0']);
    const file = a.resolve('is-number', 'index.js');
    const made = statSync(file).mtimeMs;
    const again = await installCli('is-number', '7.0.0');
    expect(statSync(again.resolve('is-number', 'index.js')).mtimeMs).toBe(made);
    const isNumber = ((await import(file)) as { default: (v: unknown) => boolean }).default;
    expect([isNumber(3), isNumber('x')]).toEqual([true, false]);
  }, 120_000);

  it('refuses a range: the cache key is the exact version', async () => {
    await expect(installCli('is-number', '^7.0.0')).rejects.toThrow(/exact version/);
  });
});
