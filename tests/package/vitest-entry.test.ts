/**
 * faultline/vitest registers the matchers with vitest's own `expect`; vitest
 * is an optional peer, so without it the import fails with the install
 * command (as the other optional peers do), not Node's bare "Cannot find
 * package 'vitest'". The child node hides vitest (tests/helpers/hide-packages.mjs).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runHidingPackages } from '../helpers/child-node.js';

const entry = pathToFileURL(resolve('src/vitest.ts')).href;

describe('faultline/vitest', () => {
  it("registers the matchers with this vitest's expect", async () => {
    await import('../../src/vitest.js');
    const run = { events: [], passed: true };
    expect(() => expect(run).toHaveNoLostCalls()).not.toThrow();
    expect(() => expect(run).toHaveFired('no_test_skip')).toThrow(/no_test_skip/);
  });

  it('without vitest installed, says which package to install and the command', { timeout: 120_000 }, () => {
    const out = runHidingPackages('vitest', `await import(${JSON.stringify(entry)}).then(() => process.stdout.write('loaded'), (e) => process.stdout.write(e.name + ': ' + e.message));`);
    expect(out).toBe(
      'MissingPeerError: faultline/vitest (the matchers registered with vitest; other runners: faultlineMatchers from faultline/testing) needs the optional peer dependency vitest, which is not installed; install it with: npm i -D vitest@4.1.12',
    );
  });
});
