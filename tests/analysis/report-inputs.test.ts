/**
 * A report says what it read: every input file with its line count and run
 * ids (in every format), an empty file as empty rather than silently merged,
 * no events at all as "no events" (exit 1 under --strict), and two copies of
 * one run as a warning.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { cli } from '../cli/cli-io.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

/** A one-session trace of run `runId`, seqs from `firstSeq`. */
function runLines(runId: string, session: string, firstSeq = 1): string[] {
  return [ev.sessionStart(session), ev.toolCall(session, 'read', `${session}-c`), ev.toolSuccess(session, 'read', `${session}-c`, 5), ev.sessionEnd(session, 'passed')].map((e, i) =>
    line({ ...e, run_id: runId, seq: firstSeq + i }),
  );
}

describe('the report names its inputs', () => {
  it('lists every input file with its lines, emptiness and run ids, in the model and in --json', async () => {
    const dir = tempDir();
    const a = writeTrace(dir, 'a.jsonl', [...runLines('run-a', 's1'), ...runLines('run-b', 's2')]);
    const empty = writeTrace(dir, 'empty.jsonl', []);
    writeFileSync(empty, '');
    const analysis = await analyzeTraces([dir]);
    expect(analysis.inputs).toEqual([
      { path: a, lines: 8, empty: false, run_ids: ['run-a', 'run-b'] },
      { path: empty, lines: 0, empty: true, run_ids: [] },
    ]);
    const { stdout } = await cli(['report', dir, '--json']);
    expect((JSON.parse(stdout) as { inputs: unknown }).inputs).toEqual(analysis.inputs);
  });

  it('names each file with its line count and run ids in the terminal, Markdown and HTML headers, and the empty one as empty', async () => {
    const dir = tempDir();
    writeTrace(dir, 'a.jsonl', runLines('run-a', 's1'));
    writeFileSync(join(dir, 'empty.jsonl'), '');
    const terminal = (await cli(['report', dir])).stdout;
    const md = (await cli(['report', dir, '--md'])).stdout;
    await cli(['report', dir, '--html', join(dir, 'html')]);
    const html = readFileSync(join(dir, 'html', 'index.html'), 'utf8');
    for (const text of [terminal, md, html]) {
      // `path: 4 lines, run r` or `path · 4 lines · run r`: the wording is the renderer's, the facts are not
      expect(text).toMatch(/a\.jsonl\S*(:| ·) 4 lines(,| ·) run run-a/);
      expect(text).toMatch(/empty\.jsonl\S*(:| ·) empty/);
    }
    expect(terminal).toMatch(/empty input file/i);
  });

  it('says "no events" when the inputs hold none, and --strict exits 1 on that and on an empty file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'empty.jsonl'), '');
    const plain = await cli(['report', dir]);
    expect(plain.code).toBe(0);
    expect(plain.stdout + plain.stderr).toMatch(/no events/);
    expect((await cli(['report', dir, '--strict'])).code).toBe(1);
    writeTrace(dir, 'a.jsonl', runLines('run-a', 's1'));
    const strict = await cli(['report', dir, '--strict']);
    expect(strict.stderr).toMatch(/--strict: .*1 empty input file/);
    expect(strict.code).toBe(1);
    expect((await cli(['report', join(dir, 'a.jsonl'), '--strict'])).code).toBe(0);
  });

  it('warns when two files hold copies of one run, but not for one run split over two files', async () => {
    const dir = tempDir();
    const a = writeTrace(dir, 'a.jsonl', runLines('run-a', 's1'));
    copyFileSync(a, join(dir, 'copy-of-a.jsonl'));
    const copies = await cli(['report', dir]);
    expect(copies.stdout).toMatch(/run run-a is in 2 input files with the same events \(.*a\.jsonl, .*copy-of-a\.jsonl\)/);

    const split = tempDir();
    writeTrace(split, 'part-1.jsonl', runLines('run-a', 's1', 1));
    writeTrace(split, 'part-2.jsonl', runLines('run-a', 's2', 5));
    expect((await cli(['report', split])).stdout).not.toMatch(/same events/);
  });
});
