/** `faultline lab` end to end through the CLI: the verdict, the exit codes, and a trace the other commands read. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import type { CliIo } from '../../src/cli/io.js';
import { bundleOwnHarness, LAB_SUITES, PROTOCOL_SUITE } from './lab-run.js';

let bundle: { file: string; remove(): void };
const dir = mkdtempSync(join(tmpdir(), 'faultline-lab-cli-'));
beforeAll(async () => {
  bundle = await bundleOwnHarness();
}, 60_000);
afterAll(() => {
  bundle?.remove();
  rmSync(dir, { recursive: true, force: true });
});

function io(): CliIo & { out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: { PATH: process.env['PATH'] ?? '' }, cwd: dir, isTTY: false, out: () => out.join(''), err: () => err.join('') };
}

describe('faultline lab', () => {
  it('prints a passing verdict and writes a trace that validate and report read, with the conformance section', async () => {
    const trace = join(dir, 'pass.jsonl');
    const cli = io();
    const code = await run(['lab', '--suite', PROTOCOL_SUITE, '--task', 'lab-parallel-reads', '--out', trace, '--', 'node', bundle.file, '--suite', LAB_SUITES], cli);
    expect(cli.out()).toContain('verdict: PASS');
    expect(code).toBe(0);
    expect(cli.out()).toMatch(/✓ orphan_tool_use\s+error\s+passed \(3 checked\)/);
    expect(cli.out()).toMatch(/· unbounded_retries\s+error\s+not exercised/);
    expect(cli.err()).toMatch(/^faultline lab: listening on http:\/\/127\.0\.0\.1:\d+ \(127\.0\.0\.1 only\)$/m);
    const check = io();
    expect(await run(['validate', trace], check)).toBe(0);
    // Every request kept beside the trace, as received: its headers (no key), its body, its timing.
    const requests = readFileSync(trace.replace(/\.jsonl$/, '.requests.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(requests.map((r) => [r['turn'], r['status'], r['side']])).toEqual([[1, 200, null], [2, 200, null]]);
    expect(JSON.parse(String(requests[1]!['body'])).messages).toHaveLength(3);
    expect(JSON.stringify(requests)).not.toContain('faultline-lab-dummy-key');
    expect(Number(requests[1]!['received_ms'])).toBeGreaterThan(Number(requests[0]!['answered_ms']));
    const report = io();
    expect(await run(['report', trace, '--md'], report)).toBe(0);
    expect(report.out()).toContain('Conformance checks');
    expect(report.out()).toMatch(/\| orphan\\_tool\\_use \| error \| 1 \| 3 \| 0 \| 0 \|/);
    // The same section in every renderer: terminal, JSON and the HTML page.
    const terminal = io();
    expect(await run(['report', trace], terminal)).toBe(0);
    expect(terminal.out()).toMatch(/Conformance checks[\s\S]*orphan_tool_use[^\n]*passed/);
    const json = io();
    expect(await run(['report', trace, '--json'], json)).toBe(0);
    const checks = (JSON.parse(json.out()) as { reports: Record<string, Record<string, { rows: Array<Record<string, unknown>> }>> }).reports['conformance']!['conformance_checks']!.rows;
    expect(checks.find((r) => r['check_id'] === 'orphan_tool_use')).toMatchObject({ evaluated: 3, violations: 0, status: 'passed' });
    const html = join(dir, 'html');
    expect(await run(['report', trace, '--html', html], io())).toBe(0);
    expect(readFileSync(join(html, 'index.html'), 'utf8')).toContain('Conformance checks');
  }, 120_000);

  it('fails (exit 1) and names the check, its source and where it fired, when the harness breaks a rule', async () => {
    const cli = io();
    const code = await run(['lab', '--suite', PROTOCOL_SUITE, '--task', 'lab-empty-output', '--out', join(dir, 'fail.jsonl'), '--', 'node', bundle.file, '--suite', LAB_SUITES, '--bug', 'tools_dropped'], cli);
    expect(code).toBe(1);
    expect(cli.out()).toMatch(/✗ tools_dropped\s+error\s+1 in 1\/1 sessions: turn 2: the request carries no tools .* \(Anthropic answers 400\)/);
    expect(cli.out()).toContain('verdict: FAIL');
  }, 120_000);

  it.each([
    [['--task', 'nope'], /no task "nope"/],
    [['--map', 'read'], /--map takes generic=name/],
    [['--timeout', '0'], /--timeout must be a positive number/],
  ])('answers bad usage with exit 2 and a reason (%j)', async (args, message) => {
    const cli = io();
    expect(await run(['lab', '--suite', PROTOCOL_SUITE, ...args, '--', 'true'], cli)).toBe(2);
    expect(cli.err()).toMatch(message);
  });
});
