/**
 * The README's code examples run as a user would run them (readme.test.ts
 * runs the shell ones): the `faultline/events` emitter writes a trace that
 * validates and reports; the defense module, saved next to the user-defense
 * fixture suite, passes `faultline verify-defense`; the vitest example runs
 * in vitest against that module. The code is read from README.md at test
 * time, so an edited example is what gets tested.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { findSection } from '../../src/analysis/report-model.js';
import { run } from '../../src/cli/program.js';
import { checkTraceFile } from '../../src/events/index.js';

const repo = resolve(import.meta.dirname, '../..');
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
// Inside the repository, so `faultline` and `faultline/events` resolve as in a project that installed it.
const scratch = mkdtempSync(join(repo, 'tests/readme/.code-examples-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The one fenced block of `lang` whose code contains `marker`. */
function block(lang: string, marker: string): string {
  const found = [...readme.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === lang && m[2]!.includes(marker));
  expect(found, `README.md: one \`\`\`${lang} block containing ${marker}`).toHaveLength(1);
  return found[0]![2]!;
}

function node(args: string[], cwd: string) {
  const ran = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: ran.status, out: `${ran.stdout}\n${ran.stderr}` };
}

describe('README code examples', () => {
  it('the emitter example writes a valid trace that the report reads, defenses triaged', async () => {
    expect(existsSync(join(repo, 'dist/events/public.js')), 'dist/ is built by npm ci (prepare)').toBe(true);
    const dir = join(scratch, 'emitter');
    mkdirSync(join(dir, 'traces'), { recursive: true });
    writeFileSync(join(dir, 'log.mts'), block('ts', 'createEmitter'));
    const ran = node(['--import', 'tsx', 'log.mts'], dir);
    expect(ran.code, ran.out).toBe(0);
    const trace = join(dir, 'traces/my-harness.jsonl');
    const checked = await checkTraceFile(trace);
    expect(checked.bad).toEqual([]);
    expect(checked.valid).toBeGreaterThan(0);
    const analysis = await analyzeTraces([trace]);
    expect(findSection(analysis, 'tool_funnel')?.rows.find((r) => r.tool === 'shell')).toMatchObject({ calls: 1, failures: 1 });
    const defenses = findSection(analysis, 'defenses')?.rows ?? [];
    // What the README says of this report: the armed defense judged and not fired, the other one off, none unwired.
    expect(defenses.find((r) => r.defense === 'identical_call_loop')).toMatchObject({ triage: 'unreached' });
    expect(defenses.find((r) => r.defense === 'low_yield_spin')).toMatchObject({ triage: 'disarmed' });
    expect(defenses.filter((r) => r.triage === 'unwired')).toEqual([]);
    const out: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void out.push(t), env: { NO_COLOR: '1' }, cwd: dir, isTTY: false };
    expect(await run(['report', '--strict', trace], io), out.join('')).toBe(0);
    // The verdict: the failed task first, then the judged, never-fired defense as its one warning.
    expect(out.join('')).toMatch(/Verdict ✗ 1 problem, 1 warning\n +✗ task fix-bug failed[^\n]*\n +! 1 shipped defense this run never reached or triggered[^\n]*identical_call_loop/);
  });

  it('the programmatic API example runs, reports, diffs and verifies, printing what it describes', { timeout: 300_000 }, () => {
    expect(existsSync(join(repo, 'dist/api/run.js')), 'dist/ is built by npm ci (prepare)').toBe(true);
    const dir = join(scratch, 'api');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'script.mjs'), block('js', 'verifyDefense(').replaceAll("'suites/demo'", JSON.stringify(join(repo, 'suites/demo'))));
    const ran = node(['script.mjs'], dir);
    expect(ran.code, ran.out).toBe(0);
    expect(ran.out).toMatch(/^(\d+) of \1 tasks passed$/m);
    expect(ran.out).toMatch(/^lines read = events used \+ lines quarantined: (\d+) = \1 \+ 0$/m);
    expect(ran.out).toContain('no regressions');
    expect(ran.out).toMatch(/^identical_call_loop: (verified|partly_verified)$/m);
    expect(existsSync(join(dir, 'traces/api-demo.jsonl'))).toBe(true);
  });

  it('the defense module passes verify-defense on the user-defense suite, and the vitest example passes', { timeout: 300_000 }, async () => {
    const dir = join(scratch, 'defense');
    mkdirSync(dir, { recursive: true });
    // The fixture suite arms ./no-test-skip.mjs: here that is the README's module.
    copyFileSync(join(repo, 'examples/user-defense/suite.yaml'), join(dir, 'suite.yaml'));
    writeFileSync(join(dir, 'no-test-skip.mjs'), block('js', 'defineDefense'));
    const out: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void out.push(t), env: {}, cwd: repo, isTTY: false };
    expect(await run(['verify-defense', join(dir, 'no-test-skip.mjs'), '--suite', dir], io), out.join('')).toBe(0);

    const test = block('js', 'faultline/testing').replaceAll('examples/user-defense/suite.yaml', join(dir, 'suite.yaml'));
    writeFileSync(join(dir, 'readme.test.mjs'), test);
    // Its own config, so the repository's (global setup, include globs) does not apply.
    writeFileSync(join(dir, 'vitest.config.mjs'), 'export default { test: { include: ["readme.test.mjs"] } };\n');
    const vitest = join(repo, 'node_modules/vitest/vitest.mjs');
    const ran = node([vitest, 'run', '--root', dir, '--config', join(dir, 'vitest.config.mjs')], dir);
    expect(ran.code, ran.out).toBe(0);
    expect(ran.out).toMatch(/1 passed/);
  });
});
