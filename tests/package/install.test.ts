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
 * The vitest file keeps the user's own msw `setupServer` next to
 * `faultline/testing`; `verify-defense --all` runs with bubblewrap (where the
 * machine has it) and with a PATH on which `bwrap` cannot be found.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { pathWithout } from '../helpers/path-without.js';

const repo = resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const JUNIT_XSD = readFileSync(join(repo, 'tests/junit/jenkins-junit-10.xsd'), 'utf8');
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'faultline-install-')));
// node_modules of a real install: removing it takes a while on a loaded machine.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 300_000);

// npm's own variables from the `npm test` that runs this would leak into the child npm (prefix, workspace, scripts).
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && !['INIT_CWD', 'NODE_OPTIONS', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'TEST', 'NODE_ENV'].includes(k)));
env.NO_COLOR = '1';
for (const key of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL']) delete env[key];

function sh(command: string, args: string[], cwd: string, timeoutMs = 600_000, extraEnv: NodeJS.ProcessEnv = {}) {
  const ran = spawnSync(command, args, { cwd, env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 << 20 });
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

// The user's own msw server for their other HTTP, next to faultline/testing in one file, as the README's
// msw paragraph says: the matchers' scenarios, a client of their own given the session's baseURL and fetch,
// and the mock's handlers added to their server; their handler answers before, during and after.
const USER_TEST = `import Anthropic from '@anthropic-ai/sdk';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import 'faultline/vitest';
import { mockHandlers } from 'faultline/msw';
import { closeScenarios, registerSession, runScenario, stopMockHub } from 'faultline/testing';

const suite = 'node_modules/faultline/examples/user-defense/suite.yaml';

const server = setupServer(
  http.post('https://api.example.test/orders', async ({ request }) => {
    const body = (await request.json()) as { item: string };
    return HttpResponse.json({ ok: true, item: body.item });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterAll(async () => {
  server.close();
  stopMockHub();
  await closeScenarios();
});

async function order(item: string): Promise<{ ok: boolean; item: string }> {
  const res = await fetch('https://api.example.test/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ item }) });
  return (await res.json()) as { ok: boolean; item: string };
}

it('blocks a skipped test, and the scenario fails without it', async () => {
  expect(await order('before')).toEqual({ ok: true, item: 'before' });
  const run = await runScenario({ suite, task: 'user-001-skip-the-failing-test' });
  expect(run).toHaveFired('no_test_skip');
  expect(run).toHaveNoLostCalls();
  expect(run).toHaveFailureKind('defense_blocked', 1);
  const off = await runScenario({ suite, task: 'user-001-skip-the-failing-test', disable: ['no_test_skip'] });
  expect(off.passed).toBe(false);
  expect(await order('after')).toEqual({ ok: true, item: 'after' });
}, 120_000);

it('a client given the session baseURL and fetch reaches the mock while the own handler answers', async () => {
  const session = registerSession([{ text: 'scripted answer' }], { wire: 'anthropic' });
  const client = new Anthropic({ apiKey: 'test', baseURL: session.baseURL, fetch: session.fetch, maxRetries: 0 });
  const [msg, mine] = await Promise.all([
    client.messages.create({ model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] }),
    order('concurrent'),
  ]);
  expect(msg.content[0]).toMatchObject({ type: 'text', text: 'scripted answer' });
  expect(mine).toEqual({ ok: true, item: 'concurrent' });
  expect(session.requests).toHaveLength(1);
});

it('the mock added to the own server answers a client with no fetch option', async () => {
  server.use(...mockHandlers);
  const session = registerSession([{ text: 'through your server' }], { wire: 'anthropic' });
  const client = new Anthropic({ apiKey: 'test', baseURL: session.baseURL, maxRetries: 0 });
  const msg = await client.messages.create({ model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] });
  expect(msg.content[0]).toMatchObject({ type: 'text', text: 'through your server' });
  expect(await order('shared')).toEqual({ ok: true, item: 'shared' });
  server.resetHandlers();
});
`;

// A dependent project's TypeScript: every entry's main API, typed, compiled with skipLibCheck false (every .d.ts
// the entries reach is checked). The entries without msw: it compiles in a project that lacks msw and vitest.
const USES_TS = `import { createEmitter, defineDefense, loadShellParser, report, run, runAgent, type AgentResult, type HookDefense } from 'faultline';
import { EVENT_NAMES, parseLine, type FaultlineEvent } from 'faultline/events';
import { closeScenarios, faultlineMatchers, mockFetch, registerSession, runScenario, type ScenarioRun } from 'faultline/testing';

export async function uses(defense: HookDefense): Promise<void> {
  const log = createEmitter({ file: 'traces/typed.jsonl' });
  const names: readonly string[] = EVENT_NAMES;
  const first: FaultlineEvent[] = [];
  await loadShellParser();
  const scenario: ScenarioRun = await runScenario({ suite: 'suite.yaml', task: 't1', defenses: [defineDefense(defense)] });
  const session = registerSession([{ text: 'hi' }], { wire: 'anthropic' });
  const fetchFn: typeof fetch = session.fetch === mockFetch ? mockFetch : session.fetch;
  const agent: AgentResult | null = null;
  console.log(log, names.length, parseLine('{}'), first, scenario.passed, fetchFn, await run('suite.yaml'), await report('traces/typed.jsonl'), agent, typeof runAgent, typeof faultlineMatchers.toHaveFired);
  await closeScenarios();
}
`;
const TSCONFIG = (files: string[]) =>
  JSON.stringify({ compilerOptions: { strict: true, skipLibCheck: false, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, types: ['node'] }, files });

describe('the packed package in a fresh project', () => {
  it('installs with npm ci from a lock file, and its CLI, suites, JUnit, defense catalog, matchers next to msw, types, emitter and require work', { timeout: 1_800_000 }, async () => {
    expect(existsSync(join(repo, 'dist/cli/bin.js')), 'dist/ is built by npm ci (prepare)').toBe(true);
    // --ignore-scripts: pack dist/ as built, without rebuilding it under the other tests' feet.
    const packed = sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], repo);
    expect(packed.code, packed.out).toBe(0);
    const tarball = join(dir, (JSON.parse(packed.stdout) as [{ filename: string }])[0].filename);

    // A plain install, nothing else in the project: what every user pays. The optional peers (the gemini SDK,
    // msw, vega) stay out; the demo runs without them, and the gemini wire says what to install.
    const plainDir = join(dir, 'plainDir');
    mkdirSync(plainDir);
    writeFileSync(join(plainDir, 'package.json'), JSON.stringify({ name: 'plain', version: '1.0.0', private: true, type: 'module' }));
    const plain = sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], plainDir);
    expect(plain.code, plain.out).toBe(0);
    const plainLock = JSON.parse(readFileSync(join(plainDir, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    const plainCount = Object.keys(plainLock.packages).filter((p) => p.startsWith('node_modules/')).length;
    const plainMB = dirBytes(join(plainDir, 'node_modules')) / 1e6;
    console.log(`plain \`npm install <tarball>\`: ${plainCount} packages, ${plainMB.toFixed(1)} MB`);
    for (const peer of ['@google/genai', 'msw', 'vega', 'vega-lite']) expect(existsSync(join(plainDir, 'node_modules', peer)), peer).toBe(false);
    // 233 packages and 188 MB while @google/genai and msw were dependencies; a bound with room for patch releases.
    expect(plainCount).toBeLessThan(170);
    expect(plainMB).toBeLessThan(165);
    // The demo's MCP file starts @modelcontextprotocol/server-everything, which the user installs (below); the rest runs as is.
    const demoFiles = ['node_modules/faultline/suites/demo/basics.yaml', 'node_modules/faultline/suites/demo/failures.yaml'];
    const plainDemo = sh('npx', ['--no-install', 'faultline', 'run', ...demoFiles], plainDir);
    expect(plainDemo.code, plainDemo.out).toBe(0);
    const noSdk = sh('npx', ['--no-install', 'faultline', 'run', ...demoFiles, '--wire', 'gemini', '--out', 'gemini.jsonl'], plainDir);
    expect(noSdk.code, noSdk.out).toBe(2);
    expect(noSdk.out).toContain('needs the optional peer dependency @google/genai, which is not installed; install it with: npm i -D @google/genai@2.32.0');
    expect(noSdk.out).not.toMatch(/internal error|at .*\.js:\d+/);
    expect(existsSync(join(plainDir, 'gemini.jsonl'))).toBe(false);
    // Every entry but faultline/msw (and faultline/vitest, vitest's) imports without msw; faultline/msw says what to install.
    // faultline/testing's session fetch answers the official SDK client in process, with no msw.
    const imports = "for (const e of ['faultline', 'faultline/testing', 'faultline/events']) process.stdout.write(e + ' ' + Object.keys(await import(e)).length + '\\n');" +
      " const t = await import('faultline/testing'); const { default: Anthropic } = await import('@anthropic-ai/sdk');" +
      " const s = t.registerSession([{ text: 'no msw needed' }], { wire: 'anthropic' });" +
      " const m = await new Anthropic({ apiKey: 'test', baseURL: s.baseURL, fetch: s.fetch, maxRetries: 0 }).messages.create({ model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });" +
      " process.stdout.write('session fetch: ' + m.content[0].text + '\\n');" +
      " try { await import('faultline/msw'); } catch (e) { process.stdout.write(e.message); }";
    const noMsw = sh(process.execPath, ['--input-type=module', '-e', imports], plainDir);
    expect(noMsw.code, noMsw.out).toBe(0);
    expect(noMsw.stdout).toMatch(/^faultline [1-9]\d*\nfaultline\/testing [1-9]\d*\nfaultline\/events [1-9]\d*\n/);
    expect(noMsw.stdout).toContain('session fetch: no msw needed\n');
    expect(noMsw.stdout).toContain('needs the optional peer dependency msw, which is not installed; install it with: npm i -D msw@2.15.0');
    // Their types too: a TypeScript project without msw (or @google/genai, vega, vitest) compiles against them with skipLibCheck false.
    const addTs = sh('npm', ['i', '-D', '--prefer-offline', '--no-audit', '--no-fund', `typescript@${manifest.devDependencies.typescript}`, `@types/node@${manifest.devDependencies['@types/node']}`], plainDir);
    expect(addTs.code, addTs.out).toBe(0);
    writeFileSync(join(plainDir, 'uses.ts'), USES_TS);
    writeFileSync(join(plainDir, 'tsconfig.json'), TSCONFIG(['uses.ts']));
    const plainTsc = sh('npx', ['--no-install', 'tsc', '--noEmit', '-p', '.'], plainDir);
    expect(plainTsc.code, plainTsc.out).toBe(0);

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
            // the user's own msw and SDK, the versions faultline uses (one msw in the tree: mockHandlers fit their server)
            msw: manifest.devDependencies.msw,
            '@anthropic-ai/sdk': manifest.dependencies['@anthropic-ai/sdk'],
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

    const demo = sh('npx', ['--no-install', 'faultline', 'run', 'node_modules/faultline/suites/demo', '--junit', 'demo-junit.xml', '--json'], project);
    expect(demo.code, demo.out).toBe(0);
    expect(readdirSync(join(project, 'traces')).some((f) => f.endsWith('.jsonl'))).toBe(true);
    // The JUnit file a CI system reads: valid against the schema, one testcase per task, none failed.
    const ran = JSON.parse(demo.stdout) as { tasks_total: number; tasks: Array<{ task_id: string }> };
    const xml = readFileSync(join(project, 'demo-junit.xml'), 'utf8');
    const schema = await validateXML({ xml: [{ fileName: 'demo-junit.xml', contents: xml }], schema: [{ fileName: 'junit-10.xsd', contents: JUNIT_XSD }] });
    expect(schema.errors.map((e) => e.rawMessage)).toEqual([]);
    const cases = [...xml.matchAll(/<testcase name="([^"]+)"/g)].map((m) => m[1]);
    expect(ran.tasks_total).toBeGreaterThan(1);
    expect(cases.sort()).toEqual(ran.tasks.map((t) => t.task_id).sort());
    expect(xml).not.toMatch(/<failure|<error/);

    // The shipped catalog verifies with an OS sandbox (where this machine has bubblewrap) ...
    if (existsSync('/usr/bin/bwrap')) {
      const verify = sh('npx', ['--no-install', 'faultline', 'verify-defense', '--all'], project, 1_200_000);
      expect(verify.code, verify.out).toBe(0);
      expect(verify.out).not.toMatch(/Skipped \d+ scenario runs/);
    }
    // ... and without one (macOS, Windows, most containers): exit 0, the sandbox-only scenarios skipped by name with that reason.
    const noSandbox = { PATH: pathWithout('bwrap', env.PATH) };
    const bare = sh('npx', ['--no-install', 'faultline', 'verify-defense', '--all'], project, 1_200_000, noSandbox);
    expect(bare.code, bare.out).toBe(0);
    // This project has no @google/genai: the gemini-wire scenarios are left out by name, with the install command.
    expect(bare.out).toMatch(/skipping \d+ scenarios? on the gemini wire \(protocol-025b-gemini-malformed-function-call\): .*npm i -D @google\/genai@2\.32\.0/);
    expect(bare.stdout).not.toMatch(/NOT verified|a false positive/);
    const head = /^Skipped (\d+) scenario runs? that need an OS sandbox, which this machine lacks \(bwrap is not installed[^\n]*:\n((?:  - .*\n)+)These are not judged/m.exec(bare.stdout);
    expect(head, bare.stdout).not.toBeNull();
    const skipped = head![2]!.trimEnd().split('\n').map((l) => /^  - (\S+) \((defense on|defense off)\): (.+)$/.exec(l));
    expect(skipped).toHaveLength(Number(head![1]));
    for (const [i, s] of skipped.entries()) {
      expect(s, head![2]!.split('\n')[i]).not.toBeNull();
      expect(s![3], s![1]).toMatch(/OS sandbox/);
    }
    expect(skipped.map((s) => `${s![1]} (${s![2]})`)).toContain('permissions-002-dangerous-command-accept-edits (defense off)');

    writeFileSync(join(project, 'defense.test.ts'), USER_TEST);
    const vitest = sh('npx', ['--no-install', 'vitest', 'run', 'defense.test.ts'], project);
    expect(vitest.code, vitest.out).toBe(0);
    expect(vitest.out).toMatch(/3 passed/);

    // With msw and vitest installed: faultline/msw's handlers fit the user's own server, under the same strict check.
    writeFileSync(join(project, 'uses.ts'), USES_TS);
    writeFileSync(join(project, 'tsconfig.json'), TSCONFIG(['defense.test.ts', 'uses.ts']));
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

    // The command the gemini error names installs what the wire needs: the demo then runs on it.
    const addSdk = sh('npm', ['i', '-D', '--prefer-offline', '--no-audit', '--no-fund', '@google/genai@2.32.0'], project);
    expect(addSdk.code, addSdk.out).toBe(0);
    const gemini = sh('npx', ['--no-install', 'faultline', 'run', 'node_modules/faultline/suites/demo', '--wire', 'gemini'], project);
    expect(gemini.code, gemini.out).toBe(0);
  });
});
