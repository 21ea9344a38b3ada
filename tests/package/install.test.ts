/**
 * faultline as a devDependency of someone else's project, end to end: the
 * packed tarball (dist/ as npm ci built it) installed into a fresh ESM project
 * with vitest and TypeScript, a lock file written by `npm install`, then
 * `npm ci` from that lock file (which fails when the package depends on
 * itself), and from that project: the CLI, the shipped demo suite, the shipped
 * defense catalog, a vitest file with the matchers, `tsc --noEmit` under
 * strict, the README's `faultline/events` example and its report, and
 * `require` from CommonJS. Packages come from the local npm cache
 * (`--prefer-offline`: `npm ci` in this repository filled it).
 *
 * Not here yet: the user's own msw handler next to faultline/testing in the
 * same file (the mock's msw interception is being changed elsewhere).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'faultline-install-')));
// node_modules of a real install: removing it takes a while on a loaded machine.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 300_000);

// npm's own variables from the `npm test` that runs this would leak into the child npm (prefix, workspace, scripts).
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && !['INIT_CWD', 'NODE_OPTIONS', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'TEST', 'NODE_ENV'].includes(k)));
env.NO_COLOR = '1';
for (const key of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL']) delete env[key];

function sh(command: string, args: string[], cwd: string, timeoutMs = 600_000) {
  const ran = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 << 20 });
  return { code: ran.status, out: `${ran.stdout ?? ''}\n${ran.stderr ?? ''}`.slice(-6000), stdout: ran.stdout ?? '' };
}

function block(lang: string, marker: string): string {
  const found = [...readme.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === lang && m[2]!.includes(marker));
  expect(found, `README.md: one \`\`\`${lang} block containing ${marker}`).toHaveLength(1);
  return found[0]![2]!;
}

function dirBytes(path: string): number {
  let total = 0;
  for (const e of readdirSync(path, { withFileTypes: true, recursive: true })) if (e.isFile()) total += statSync(join(e.parentPath, e.name)).size;
  return total;
}

const USER_TEST = `import { expect, it } from 'vitest';
import 'faultline/vitest';
import { closeScenarios, runScenario } from 'faultline/testing';

const suite = 'node_modules/faultline/examples/user-defense/suite.yaml';

it('blocks a skipped test, and the scenario fails without it', async () => {
  const run = await runScenario({ suite, task: 'user-001-skip-the-failing-test' });
  expect(run).toHaveFired('no_test_skip');
  expect(run).toHaveNoLostCalls();
  expect(run).toHaveFailureKind('defense_blocked', 1);
  const off = await runScenario({ suite, task: 'user-001-skip-the-failing-test', disable: ['no_test_skip'] });
  expect(off.passed).toBe(false);
  await closeScenarios();
}, 120_000);
`;

describe('the packed package in a fresh project', () => {
  it('installs with npm ci from a lock file, and its CLI, suites, matchers, types, emitter and require work', { timeout: 1_800_000 }, () => {
    expect(existsSync(join(repo, 'dist/cli/bin.js')), 'dist/ is built by npm ci (prepare)').toBe(true);
    // --ignore-scripts: pack dist/ as built, without rebuilding it under the other tests' feet.
    const packed = sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], repo);
    expect(packed.code, packed.out).toBe(0);
    const tarball = join(dir, (JSON.parse(packed.stdout) as [{ filename: string }])[0].filename);

    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify(
        {
          name: 'user-harness',
          version: '1.0.0',
          private: true,
          type: 'module',
          devDependencies: {
            faultline: `file:${tarball}`,
            vitest: manifest.devDependencies.vitest,
            typescript: manifest.devDependencies.typescript,
            '@types/node': manifest.devDependencies['@types/node'],
            // the demo suite's MCP task runs this server from the project's node_modules
            '@modelcontextprotocol/server-everything': manifest.devDependencies['@modelcontextprotocol/server-everything'],
          },
        },
        null,
        2,
      ),
    );
    const npmFlags = ['--prefer-offline', '--no-audit', '--no-fund'];
    const install = sh('npm', ['install', ...npmFlags], project);
    expect(install.code, install.out).toBe(0);
    expect(existsSync(join(project, 'package-lock.json'))).toBe(true);
    rmSync(join(project, 'node_modules'), { recursive: true, force: true });
    const ci = sh('npm', ['ci', ...npmFlags], project);
    expect(ci.code, ci.out).toBe(0);
    const ls = sh('npm', ['ls'], project);
    expect(ls.code, ls.out).toBe(0);

    // What a plain install brought (printed for the record; the heavy optional packages stay out).
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const installed = Object.keys(lock.packages).filter((p) => p.startsWith('node_modules/'));
    const bins = readdirSync(join(project, 'node_modules/.bin'));
    console.log(`installed: ${installed.length} packages, ${(dirBytes(join(project, 'node_modules')) / 1e6).toFixed(1)} MB, ${bins.length} .bin entries: ${bins.join(' ')}`);
    for (const heavy of ['vega', 'vega-lite', 'tree-sitter-bash']) expect(existsSync(join(project, 'node_modules', heavy)), heavy).toBe(false);

    const help = sh('npx', ['--no-install', 'faultline', '--help'], project);
    expect(help.code, help.out).toBe(0);
    expect(help.out).toMatch(/Usage: faultline/);

    const demo = sh('npx', ['--no-install', 'faultline', 'run', 'node_modules/faultline/suites/demo'], project);
    expect(demo.code, demo.out).toBe(0);
    expect(readdirSync(join(project, 'traces')).some((f) => f.endsWith('.jsonl'))).toBe(true);

    // The shipped catalog verifies; without an OS sandbox its sandbox-only scenarios are another change's business.
    if (existsSync('/usr/bin/bwrap')) {
      const verify = sh('npx', ['--no-install', 'faultline', 'verify-defense', '--all'], project, 1_200_000);
      expect(verify.code, verify.out).toBe(0);
    }

    writeFileSync(join(project, 'defense.test.ts'), USER_TEST);
    const vitest = sh('npx', ['--no-install', 'vitest', 'run', 'defense.test.ts'], project);
    expect(vitest.code, vitest.out).toBe(0);
    expect(vitest.out).toMatch(/1 passed/);

    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, types: ['node'] }, files: ['defense.test.ts'] }),
    );
    const tsc = sh('npx', ['--no-install', 'tsc', '--noEmit', '-p', '.'], project);
    expect(tsc.code, tsc.out).toBe(0);

    mkdirSync(join(project, 'traces'), { recursive: true });
    writeFileSync(join(project, 'log.mjs'), block('ts', 'createEmitter'));
    const logged = sh(process.execPath, ['log.mjs'], project);
    expect(logged.code, logged.out).toBe(0);
    const report = sh('npx', ['--no-install', 'faultline', 'report', '--strict', 'traces/my-harness.jsonl'], project);
    expect(report.code, report.out).toBe(0);
    expect(report.out).not.toMatch(/unwired/);

    writeFileSync(
      join(project, 'load.cjs'),
      "const f = require('faultline'); const t = require('faultline/testing'); process.stdout.write([typeof f.runAgent, typeof t.runScenario].join(' '));\n",
    );
    const required = sh(process.execPath, ['load.cjs'], project);
    expect(required.code, required.out).toBe(0);
    expect(required.stdout).toBe('function function');
  });
});
