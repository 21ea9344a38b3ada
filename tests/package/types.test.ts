/**
 * The matchers are typed for a user's vitest suite under TypeScript `strict`:
 * `import 'faultline/vitest'` carries vitest's `declare module` augmentation.
 * Compiles a user's test file against the built package (dist/*.d.ts) by its
 * own name, as a project that installed it would.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
// Inside the repository, so `faultline/...` resolves to this package by its name.
const dir = mkdtempSync(join(root, 'tests/package/.types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tsc(source: string): { code: number; out: string } {
  writeFileSync(join(dir, 'user.test.ts'), source);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, types: ['node'] }, files: ['user.test.ts'] }));
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8', stdio: 'pipe' });
    return { code: 0, out: '' };
  } catch (error) {
    const e = error as { status: number; stdout: string };
    return { code: e.status, out: e.stdout };
  }
}

const USER_TEST = (setup: string) => `import { expect, it } from 'vitest';
${setup}
import { runScenario } from 'faultline/testing';

it('fires', async () => {
  const run = await runScenario({ suite: 'suite.yaml', task: 't1' });
  expect(run).toHaveFired('no_test_skip');
  expect(run).toHaveNoLostCalls();
  expect(run.events).toHaveFailureKind('defense_blocked', 1, 'edit');
  expect(run).not.toHaveFired('identical_call_loop', 2);
});
`;

describe('matcher types under strict', () => {
  it("import 'faultline/vitest' types toHaveFired, toHaveNoLostCalls, toHaveFailureKind", { timeout: 120_000 }, () => {
    const ran = tsc(USER_TEST("import 'faultline/vitest';"));
    expect(ran.out).toBe('');
    expect(ran.code).toBe(0);
  });

  it('without it the matchers are not typed, and a wrong argument is an error with it', { timeout: 120_000 }, () => {
    expect(tsc(USER_TEST('')).out).toMatch(/Property 'toHaveFired' does not exist/);
    const wrong = tsc(USER_TEST("import 'faultline/vitest';").replace("toHaveFailureKind('defense_blocked', 1, 'edit')", "toHaveFailureKind('defense_blocked', 'one')"));
    expect(wrong.out).toMatch(/not assignable to parameter of type 'number'/);
  });
});
