/**
 * Listed rows have a total order that names the run, never the input file:
 * two runs that share session ids (two runs of one suite) list the same way
 * whichever file holds which run, i.e. whatever order their paths sort in.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { findSection } from '../../src/analysis/report-model.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

function run(runId: string): string[] {
  return ['s1', 's2'].flatMap((s) =>
    [ev.sessionStart(s), ev.expectation(s, 'answer', false, `${s} of ${runId}: first`), ev.expectation(s, 'files', false, `${s} of ${runId}: second`), ev.sessionEnd(s, 'failed')].map((e) => line({ ...e, run_id: runId })),
  );
}

describe('rows of two runs sharing session ids', () => {
  it('are listed in one order whichever file (a.jsonl or b.jsonl) holds which run', async () => {
    const listed: unknown[] = [];
    const [r1, r2] = [run('r1'), run('r2')];
    for (const [first, second] of [[r1, r2], [r2, r1]] as const) {
      const dir = tempDir();
      writeTrace(dir, 'a.jsonl', first);
      writeTrace(dir, 'b.jsonl', second);
      const analysis = await analyzeTraces([join(dir, 'a.jsonl'), join(dir, 'b.jsonl')], { cache: { enabled: false } });
      listed.push(findSection(analysis, 'expectation_failures')?.rows.map((r) => r.detail));
    }
    expect(listed[0]).toEqual(['s1 of r1: first', 's1 of r1: second', 's1 of r2: first', 's1 of r2: second', 's2 of r1: first', 's2 of r1: second', 's2 of r2: first', 's2 of r2: second']);
    expect(listed[1]).toEqual(listed[0]);
  });
});
