/**
 * The same trace named twice (the same path, a directory plus a glob over
 * it, a symlink) is read once: inputs are de-duplicated by real path, and an
 * argument whose files were all named already is not "no trace files found".
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveInputs } from '../../src/analysis/inputs.js';
import { cli } from '../cli/cli-io.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

function oneSessionTrace(dir: string, name = 't.jsonl'): string {
  return writeTrace(dir, name, [line(ev.sessionStart('s1')), line(ev.toolCall('s1', 'read', 'c1')), line(ev.toolSuccess('s1', 'read', 'c1', 5)), line(ev.sessionEnd('s1', 'passed'))]);
}

interface JsonReport {
  files: string[];
  reconciliation: { lines_read: number; events_used: number };
  reports: { sessions: { session_summary: { rows: { sessions_started: number }[] } } };
}

describe('inputs are de-duplicated by real path', () => {
  it('resolveInputs keeps one entry for a file named twice, through a directory, a glob and a symlink', async () => {
    const dir = tempDir();
    const path = oneSessionTrace(dir);
    const link = join(dir, 'link.jsonl');
    symlinkSync(path, link);
    const files = await resolveInputs([path, path, dir, join(dir, '*.jsonl'), link]);
    expect(files.map((f) => f.path)).toEqual([path]);
  });

  for (const [how, args] of [
    ['the same file twice', (dir: string, path: string) => [path, path]],
    ['a directory plus a glob over it', (dir: string) => [dir, join(dir, '*.jsonl')]],
    ['a file plus a symlink to it', (dir: string, path: string) => [path, join(dir, 'link.jsonl')]],
  ] as const) {
    it(`report reads ${how} once`, async () => {
      const dir = tempDir();
      const path = oneSessionTrace(dir);
      symlinkSync(path, join(dir, 'link.jsonl'));
      const { code, stdout, stderr } = await cli(['report', ...args(dir, path), '--json']);
      expect(stderr).not.toContain('no trace files found');
      expect(code).toBe(0);
      const json = JSON.parse(stdout) as JsonReport;
      expect(json.files).toHaveLength(1);
      expect(json.reconciliation).toMatchObject({ lines_read: 4, events_used: 4 });
      expect(json.reports.sessions.session_summary.rows[0]?.sessions_started).toBe(1);
    });
  }

  it('an import named twice with --format is imported once', async () => {
    const fixture = 'tests/importers/fixtures/tau-bench';
    const { code, stdout } = await cli(['report', '--format', 'tau-bench', fixture, `${fixture}/*.json`, '--json']);
    expect(code).toBe(0);
    const once = await cli(['report', '--format', 'tau-bench', fixture, '--json']);
    expect((JSON.parse(stdout) as JsonReport).reconciliation).toEqual((JSON.parse(once.stdout) as JsonReport).reconciliation);
  });
});
