/**
 * A user's own defense (examples/user-defense/no-test-skip.mjs, which
 * imports `faultline` by name) checked the two ways a user would: in their
 * own vitest suite through `faultline/testing` — imported by package name,
 * as a user would — and through `faultline verify-defense`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeScenarios, faultlineMatchers, runScenario, type FaultlineMatchers } from 'faultline/testing';
import { cli } from '../cli/cli-io.js';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Assertion<T> extends FaultlineMatchers<T> {}
}
expect.extend(faultlineMatchers);
afterAll(() => closeScenarios());

const dir = join(import.meta.dirname, '../../examples/user-defense');
const suite = join(dir, 'suite.yaml');
const module = join(dir, 'no-test-skip.mjs');

describe('a user defense through faultline/testing', () => {
  it('is imported from the built package (dist/ is built by npm ci)', () => {
    expect(existsSync(join(import.meta.dirname, '../../dist/testing.js')), 'run npm run build').toBe(true);
  });

  it('fires on its fault scenario, which then passes with every call settled', async () => {
    const run = await runScenario({ suite, task: 'user-001-skip-the-failing-test' });
    expect(run).toHaveFired('no_test_skip', 1);
    expect(run).toHaveFailureKind('defense_blocked', 1, 'edit');
    expect(run).toHaveNoLostCalls();
    expect(run.passed, run.expectations.filter((e) => !e.ok).map((e) => e.detail).join('; ')).toBe(true);
  });

  it('lets the skip land when switched off, so the scenario fails (the mutation check)', async () => {
    const run = await runScenario({ suite, task: 'user-001-skip-the-failing-test', disable: ['no_test_skip'] });
    expect(run).not.toHaveFired('no_test_skip');
    expect(run.passed).toBe(false);
    expect(run.expectations.find((e) => e.id === 'files.src/sum.test.js')?.ok).toBe(false);
  });

  it('stays quiet on a legitimate edit of a test file', async () => {
    const run = await runScenario({ suite, task: 'user-control-edit-test-file' });
    expect(run).not.toHaveFired('no_test_skip');
    expect(run.passed).toBe(true);
  });

  it('arms a defense object given directly, and the matchers explain a failure', async () => {
    const { default: noTestSkip } = (await import(module)) as { default: { name: string } };
    const run = await runScenario({ suite, task: 'user-001-skip-the-failing-test', disable: [], defenses: [noTestSkip as never] });
    expect(run).toHaveFired('no_test_skip');
    expect(() => expect(run).toHaveFired('identical_call_loop')).toThrow(/to fire, but it fired 0 times \(it was evaluated \d+ times\)/);
    expect(() => expect(run).toHaveFired('not_armed_here')).toThrow(/it was not armed/);
  });
});

describe('a user defense through faultline verify-defense', () => {
  it('is verified end to end: recall 1/1, no false positive on its two controls, the mutation fails', async () => {
    const { code, stdout } = await cli(['verify-defense', module, '--suite', dir]);
    expect(stdout).toMatch(/no_test_skip +block +on +1\/1 100% +0\/2 0% +1\/1 failed +verified/);
    expect(code).toBe(0);
  }, 60_000);

  it('is what --all verifies over the suite that names it (the shipped defenses have no scenarios there)', async () => {
    const { code, stdout } = await cli(['verify-defense', '--all', '--suite', dir, '--md']);
    expect(stdout.trim().split('\n')).toEqual([
      '| defense | action | default | recall | false positives | defense off | verdict |',
      '|---|---|---|---|---|---|---|',
      '| no_test_skip | block | on | 1/1 100% | 0/2 0% | 1/1 failed | verified |',
    ]);
    expect(code).toBe(0);
  }, 60_000);
});
