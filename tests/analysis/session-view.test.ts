/**
 * A session you can look at: a real run of one busy session (a retried 429,
 * three reads in parallel, a command the dangerous-command defense blocks, a
 * missed expectation), viewed with `report --session` in the terminal and in
 * the HTML report; and the view of a hostile trace, every string inert.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { renderHtml } from '../../src/report/html.js';
import { sessionAnchor } from '../../src/report/session-html.js';
import { cli } from '../cli/cli-io.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

const SESSION_SUITE = 'tests/fixtures/session-view.yaml';
let trace: string;

beforeAll(async () => {
  trace = join(tempDir(), 'busy.jsonl');
  const run = await cli(['run', SESSION_SUITE, '--out', trace]);
  expect(run.stdout).toContain(`trace: ${trace}`);
  expect(run.code).toBe(1); // the missed expectation
}, 120_000);

describe('report --session in the terminal', () => {
  it('draws the parallel reads in three lanes, the retry and the defense as marks, and the failed expectation', async () => {
    for (const id of ['busy-session']) {
      const { code, stdout } = await cli(['report', trace, '--session', id]);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Session \S+ · task busy-session · run \S+$/m);
      const lane = (name: string) => stdout.split('\n').find((l) => l.startsWith(`  ${name.padEnd(7)}│`)) ?? '';
      // the three reads of one batch ran at the same time: each in a lane of its own, their bars overlapping
      // (on a loaded machine they may start a column or two apart, but each starts before the others end)
      const bars = ['lane 1', 'lane 2', 'lane 3'].map((l) => {
        const line = lane(l);
        const start = line.indexOf('█');
        let end = start;
        while (end + 1 < line.length && line[end + 1] !== ' ') end++;
        return { start, end };
      });
      expect(bars.every((b) => b.start > 0)).toBe(true);
      expect(Math.max(...bars.map((b) => b.start))).toBeLessThanOrEqual(Math.min(...bars.map((b) => b.end)));
      expect(lane('lane 4')).toBe('');
      // the blocked bash call ran after the reads and failed (X); its bar is too short for its name on a fast run
      expect(lane('lane 1')).toMatch(/█[^X]*X/);
      const marks = lane('marks');
      expect(marks.indexOf('R')).toBeGreaterThan(0);
      expect(marks.indexOf('D')).toBeGreaterThan(marks.indexOf('R'));
      expect(stdout).toMatch(/Failed expectations \(1\)[\s\S]*answer\.0 .*answer contains "All clean"/);
      expect(stdout).toMatch(/│ +\d+ │ +1 │ retry +│ rate_limited +│ attempt 1 · status 429/);
      expect(stdout).toMatch(/│ +\d+ │ +2 │ defense │ dangerous_command_block │ block · bash/);
      expect(stdout).toMatch(/│ +\d+ │ +2 │ bash │ deny +│ dangerous_command │/);
      expect(stdout.split('\n').filter((l) => [...l].length > 100)).toEqual([]);
    }
  });

  it('finds the session by its session id too, and names what the traces hold for an unknown id (exit 2)', async () => {
    const bySession = await cli(['report', trace, '--json']);
    const sessionId = (JSON.parse(bySession.stdout) as { reports: { expectations: { expectation_failures: { rows: { session_id: string }[] } } } }).reports.expectations.expectation_failures.rows[0]!.session_id;
    const found = await cli(['report', trace, '--session', sessionId]);
    expect(found.code).toBe(0);
    expect(found.stdout).toContain(`Session ${sessionId} · task busy-session`);
    const missing = await cli(['report', trace, '--session', 'nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no session or task "nope" in ${trace} (it holds e.g. ${sessionId} (task busy-session))`);
    expect((await cli(['report', trace, '--session', sessionId, '--json'])).code).toBe(2);
  });
});

describe('the session view in the HTML report', () => {
  it('links the failed expectation row to the session view, which holds the timeline and the tables', async () => {
    const html = await renderHtml(await analyzeTraces([trace]));
    const target = /<a href="#(session-[0-9a-f]{16})">/.exec(html)?.[1];
    expect(target).toBeDefined();
    expect(html).toContain(`<section class="session" id="${target}">`);
    expect(html.match(/<g class="bar call ok" data-lane="\d"/g)).toHaveLength(3);
    expect(html).toMatch(/<path class="mark retry"[^>]*><title>retry · rate_limited/);
    expect(html).toMatch(/<path class="mark defense"[^>]*><title>defense · dangerous_command_block/);
  });

  it('keeps hostile session ids, task ids, details and tool names inert, and gives the view a safe id', async () => {
    const bad = '"><script>alert(1)</script>';
    const e = (x: Record<string, unknown>) => line({ ...x, session_id: bad, task_id: `${bad}task` });
    const dir = tempDir();
    const path = writeTrace(dir, 'hostile.jsonl', [
      e(ev.sessionStart('s')),
      e(ev.toolCall('s', '<unknown>', 'id-1', { requested_tool: '<img src=x onerror=alert(2)>' })),
      e(ev.toolFailure('s', '<unknown>', 'id-1', 'not_found', 0)),
      e(ev.defenseTrigger('s', 'external_guardrail', { external_name: '</svg><script>alert(3)</script>' })),
      e(ev.expectation('s', 'answer.0', false, '<iframe src="javascript:alert(4)"></iframe>')),
      e(ev.sessionEnd('s', 'failed')),
    ]);
    const analysis = await analyzeTraces([path]);
    expect(analysis.load.quarantined).toEqual([]);
    expect(analysis.sessions?.map((s) => s.session_id)).toEqual([bad]);
    const html = await renderHtml(analysis);
    expect(html).not.toMatch(/<script|<img|<iframe/i);
    expect(html.match(/<\/svg>/g)?.length ?? 0).toBe(html.match(/<svg[\s>]/g)?.length ?? 0);
    expect(html).toContain(`id="${sessionAnchor('r1', bad)}"`);
    expect(html).toContain('&#60;img src=x onerror=alert(2)&#62;');
  });
});

describe('the conversation of a recorded run', () => {
  it('is shown whole, secrets redacted, in the terminal and in the HTML view', async () => {
    const dir = tempDir();
    const recorded = join(dir, 'recorded.jsonl');
    const recording = join(dir, 'recording');
    expect((await cli(['run', SESSION_SUITE, '--out', recorded, '--record', recording])).code).toBe(1);
    const { code, stdout, stderr } = await cli(['report', recorded, '--session', 'busy-session', '--recording', recording]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/Conversation \(from the recording, secrets redacted\)\n {2}system: [\s\S]*\n {2}user: Read the three notes, then free up disk space\.\n {2}assistant: Reading all three at once\.\n {2}assistant → read\(\{"file_path":"a\.txt"\}\)\n/);
    expect(stdout).toContain('  assistant → bash({"command":"rm -rf /"})\n  user ← (error) Refused: ');
    expect(stdout).toMatch(/\n {2}assistant: The command was blocked\.\n/);
    expect(stdout).toContain('gamma api_key=[REDACTED]');
    expect(stdout).not.toContain('sk-ant-api03');

    const out = join(dir, 'html');
    expect((await cli(['report', recorded, '--html', out, '--recording', recording])).code).toBe(0);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toMatch(/<details class="conversation"><summary>Conversation \(\d+ blocks, from the recording, secrets redacted\)<\/summary>/);
    expect(html).toContain('<pre>read({&#34;file_path&#34;:&#34;a.txt&#34;})</pre>');
    expect(html).not.toContain('sk-ant-api03');

    const none = await cli(['report', recorded, '--session', 'busy-session', '--recording', tempDir()]);
    expect(none.stderr).toMatch(/holds no recorded conversation of this session/);
    expect(none.stdout).not.toContain('Conversation');
  });
});
