/**
 * Item 5 of issue 14: `faultline run` killed with SIGKILL mid-run leaves a
 * trace with at most one torn last line, and `report` counts the sessions
 * that were cut short apart from passed and failed ones.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from './cli-io.js';

const dir = mkdtempSync(join(tmpdir(), 'faultline-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// 40 tasks of about 0.3 s each, 4 at a time: the run lasts seconds, long enough to be killed in the middle.
const suite = `suite: slow
tasks:
${Array.from(
  { length: 40 },
  (_, i) => `  - id: slow-${i}
    prompt: wait
    tools: [sleep]
    script:
      - tool_use: [{ name: sleep, input: { ms: 300 } }]
      - text: ${i % 5 === 4 ? 'wrong' : 'done'}
    expect: { answer: { contains: done } }
`,
).join('')}`;

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
const count = (text: string, event: string) => text.split('\n').filter((l) => l.includes(`"event":"${event}"`)).length;

describe('faultline run killed with SIGKILL', () => {
  it('leaves at most one torn line, and report counts the cut-short sessions apart from passed and failed', async () => {
    const suiteFile = join(dir, 'slow.yaml');
    const trace = join(dir, 'killed.jsonl');
    writeFileSync(suiteFile, suite);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'run', suiteFile, '--out', trace, '-j', '4'], {
      cwd: process.cwd(),
      stdio: 'ignore',
      env: { ...process.env, TMPDIR: dir },
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    // Kill once some sessions ended and others are running: no run_end yet.
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const text = lines(trace);
      if (count(text, 'session_end') >= 8 && count(text, 'session_start') > count(text, 'session_end')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const text = lines(trace);
    expect(count(text, 'run_end')).toBe(0);
    const started = count(text, 'session_start');
    const ended = count(text, 'session_end');
    expect(ended).toBeGreaterThanOrEqual(8);

    // Whole lines only: every line but possibly the last parses.
    const validated = await cli(['validate', trace]);
    const badLines = validated.stdout.split('\n').filter((l) => /:\d+: /.test(l));
    expect(badLines.length).toBeLessThanOrEqual(1);
    if (badLines.length === 1) expect(badLines[0]).toContain(`:${text.split('\n').filter((l) => l !== '').length}: `);

    const report = await cli(['report', trace, '--json']);
    const json = JSON.parse(report.stdout) as { reports: Record<string, Record<string, { rows: Record<string, unknown>[] }>>; findings: { text: string }[] };
    const sessions = json.reports.sessions!.session_summary!.rows[0]!;
    const runs = json.reports.runs!.run_summary!.rows[0]!;
    const outcomes = Object.fromEntries(json.reports.sessions!.session_outcomes!.rows.map((r) => [r.outcome, r.sessions]));
    // A torn session_start or session_end line is quarantined, so count from the events the report used.
    const cut = Number(sessions.sessions_started) - Number(sessions.sessions_ended);
    expect(cut).toBeGreaterThan(0);
    expect(Number(sessions.sessions_started)).toBeLessThanOrEqual(started);
    expect(Number(sessions.sessions_ended)).toBeLessThanOrEqual(ended);
    expect(runs).toMatchObject({ runs: 1, runs_without_run_end: 1, sessions_cut_short: cut });
    // Cut-short sessions are neither passed nor failed: the outcomes add up to the ended sessions only.
    expect(Number(outcomes.passed ?? 0) + Number(outcomes.failed ?? 0) + Number(outcomes.error ?? 0) + Number(outcomes.aborted ?? 0)).toBe(Number(sessions.sessions_ended));
    expect(json.findings.map((f) => f.text)).toContain(
      `${cut} session${cut === 1 ? '' : 's'} cut short (session_start without session_end: the run was killed or lost events); counted neither passed nor failed, pass rates are over the ${sessions.sessions_ended} ended sessions`,
    );
    expect(json.findings.map((f) => f.text)).toContain('1 run without run_end (killed or still running; see Runs)');
    // Calls in flight when the run was killed (a call of a session that never ended, without a result), counted from the lines:
    // cut short, never lost, and never the lost-call error.
    const events = text.split('\n').flatMap((l) => {
      try {
        return [JSON.parse(l) as { event: string; session_id?: string; tool_use_id?: string }];
      } catch {
        return []; // the torn last line
      }
    });
    const endedIds = new Set(events.filter((e) => e.event === 'session_end').map((e) => e.session_id));
    const settled = new Set(events.filter((e) => e.event === 'tool_success' || e.event === 'tool_failure').map((e) => `${e.session_id}/${e.tool_use_id}`));
    const inFlight = events.filter((e) => e.event === 'tool_call' && !endedIds.has(e.session_id) && !settled.has(`${e.session_id}/${e.tool_use_id}`)).length;
    const funnel = json.reports.tool_funnel!.tool_funnel!.rows.find((r) => r.tool === '(all tools)')!;
    expect(funnel).toMatchObject({ lost: 0, cut_short: inFlight });
    expect(json.findings.map((f) => f.text).filter((t) => t.includes('lost ='))).toEqual([]);
  }, 180_000);
});
