import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, cli, jsonReport, rows, scratch } from './helpers.js';

const CLAUDE = join(FIXTURES, 'claude-code-denials');
const TRANSCRIPT = join(CLAUDE, '1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a.jsonl');

describe('reports of imported traces', () => {
  it('name the user\'s file in every renderer, never the temporary file the import went through', async () => {
    const text = await cli(['report', CLAUDE]);
    const md = await cli(['report', CLAUDE, '--md']);
    const json = await cli(['report', CLAUDE, '--json']);
    const html = join(scratch(), 'html');
    expect((await cli(['report', CLAUDE, '--html', html])).code).toBe(0);
    const page = readFileSync(join(html, 'index.html'), 'utf8');
    // The terminal wraps a long path: its directory must be there, unbroken.
    expect(text.stdout).toContain(`${CLAUDE}/`);
    for (const out of [text.stdout, md.stdout, json.stdout, page]) {
      if (out !== text.stdout) expect(out).toContain(TRANSCRIPT);
      expect(out).not.toMatch(/faultline-import-[^/]*\/imported\.jsonl/);
    }
    const diff = await cli(['diff', CLAUDE, join(FIXTURES, 'tau-bench/no-tool-shape.json')]);
    expect(diff.stdout).toContain(`${CLAUDE}/`);
    expect(diff.stdout).not.toContain('imported.jsonl');
  });

  it('show the pass rate of a logical run whose outcomes the source does not record as not available, not 0%', async () => {
    const report = await jsonReport([CLAUDE]);
    expect(rows(report, 'runs', 'logical_runs')[0]).toMatchObject({ sessions_ended: 1, passed: 0, pass_rate_of_ended_sessions: null });
    const judged = await jsonReport([join(FIXTURES, 'tau-bench/no-tool-shape.json')]);
    expect(rows(judged, 'runs', 'logical_runs')[0]).toMatchObject({ sessions_ended: 1, pass_rate_of_ended_sessions: 0 });
    const text = await cli(['report', CLAUDE]);
    const logical = text.stdout.slice(text.stdout.indexOf('Logical runs ('));
    expect(logical).toMatch(/pass_rate_of_ended_sessions\s+—/);
  });
});
