/**
 * Result handling through the real SDK + msw: over-limit output is cut to
 * head 70% / tail 30% with the full text spilled to a file the model can
 * read; `read` is never spilled (the spill-read loop); mutating calls are
 * snapshotted with their trigger; the display side never hides errors.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_SUBDIR } from '../../src/harness/pipeline/session-services.js';
import { createToolSearchTool } from '../../src/harness/tools/tool-search.js';
import { createRegistry } from '../../src/harness/tools/builtin.js';
import { stopMockHub } from '../../src/mock/msw-hub.js';
import { runPipeline } from './run-pipeline.js';

afterAll(() => stopMockHub());

const big = Array.from({ length: 3000 }, (_, i) => `line ${String(i + 1).padStart(5, '0')} ${'x'.repeat(40)}`).join('\n') + '\n';

describe('truncate and spill', () => {
  it('keeps head 70% and tail 30% of a 30,000+ char bash output, spills the full text and tells the model sizes and path', async () => {
    const run = await runPipeline([{ tool_use: [{ name: 'bash', input: { command: 'cat big.log' } }] }, { text: 'done' }], { files: { 'big.log': big } });
    const success = run.of('tool_success')[0]!;
    expect(success).toMatchObject({ truncated: true, spilled: true, raw_bytes: big.trimEnd().length });
    const text = run.results()[0]!.content;
    expect(text.length).toBeLessThanOrEqual(30_000 + 400);
    expect(text.startsWith('line 00001')).toBe(true);
    const cut = text.indexOf('… [');
    expect(cut).toBe(21_000 + 2); // head = 70% of the 30,000 limit, then two newlines
    expect(text).toContain('line 03000'); // the tail survives
    expect(text).toMatch(new RegExp(`\\[\\d+ characters omitted\\]`));
    expect(text).toContain(`of ${big.trimEnd().length} characters`);
    const path = /saved at (\.faultline\/spill\/\S+\.txt)/.exec(text)?.[1];
    expect(path).toBeDefined();
    expect(readFileSync(join(run.workspace, path!), 'utf8')).toBe(big.trimEnd());
  });

  it('never spills read of a big file (read limits itself in lines), and an ordinary big read is not counted as the loop', async () => {
    const run = await runPipeline(
      [
        { tool_use: [{ name: 'bash', input: { command: 'cat big.log' } }] },
        { tool_use: [{ name: 'read', input: { file_path: 'big.log' } }] },
        { text: 'done' },
      ],
      { files: { 'big.log': big } },
    );
    const read = run.of('tool_success').find((s) => s.tool === 'read')!;
    expect(read).toMatchObject({ truncated: false, spilled: false });
    expect(run.of('defense_trigger')).toEqual([]); // reading an ordinary big file is not the loop
  });

  it('fires spill_read_loop when the model reads a spill file back, which would re-spill with the defense off', async () => {
    const script = [
      { tool_use: [{ name: 'bash', id: 'toolu_big', input: { command: 'cat big.log' } }] },
      { tool_use: [{ name: 'read', id: 'toolu_back', input: { file_path: '.faultline/spill/t1-toolu_big.txt' } }] },
      { text: 'done' },
    ];
    const on = await runPipeline(script, { files: { 'big.log': big } });
    expect(on.of('tool_success').map((s) => [s.tool, s.spilled])).toEqual([
      ['bash', true],
      ['read', false],
    ]);
    expect(on.of('defense_trigger')).toMatchObject([{ defense: 'spill_read_loop', action: 'block', tool: 'read' }]);
    expect(on.results()[1]!.content).toContain('line 01500'); // the omitted middle is readable

    const off = await runPipeline(script, { files: { 'big.log': big }, disabledDefenses: ['spill_read_loop'] });
    expect(off.of('tool_success').map((s) => [s.tool, s.spilled])).toEqual([
      ['bash', true],
      ['read', true],
    ]);
  });
});

describe('snapshots and the display side', () => {
  it('snapshots a file before a mutating call, recording what triggered it', async () => {
    const run = await runPipeline(
      [{ tool_use: [{ name: 'bash', input: { command: 'sed -i s/old/new/ notes.txt' } }] }, { text: 'done' }],
      { files: { 'notes.txt': 'old text\n' }, rules: [{ id: 'sed', effect: 'allow', tool: 'bash', pattern: 'sed *' }] },
    );
    expect(readFileSync(join(run.workspace, 'notes.txt'), 'utf8')).toBe('new text\n');
    const dir = join(run.workspace, SNAPSHOT_SUBDIR);
    const [snap] = readdirSync(dir);
    const manifest = JSON.parse(readFileSync(join(dir, snap!, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ tool: 'bash', trigger: 'bash: sed -i s/old/new/ notes.txt', files: [{ path: 'notes.txt' }] });
    expect(readFileSync(join(dir, snap!, 'files', 'notes.txt'), 'utf8')).toBe('old text\n');
  });

  it('hides tool_search on the display side but always shows errors, while the model gets the full text', async () => {
    const run = await runPipeline(
      [
        {
          tool_use: [
            { name: 'tool_search', input: { query: 'select:sleep' } },
            { name: 'read', input: { file_path: 'missing.txt' } },
            { name: 'find_file', input: {} },
          ],
        },
        { text: 'done' },
      ],
      {
        registry: () => {
          const registry = createRegistry(['read', 'sleep'], { deferred: ['sleep'] });
          registry.register(createToolSearchTool(registry));
          return registry;
        },
      },
    );
    const byTool = Object.fromEntries(run.settled.map((s) => [s.tool, s]));
    expect(byTool.tool_search!.display).toEqual({ mode: 'hidden', text: '' });
    expect(run.results()[0]!.content).toMatch(/Loaded 1 tool/);
    expect(byTool.read!).toMatchObject({ isError: true, display: { mode: 'full' } });
    expect(byTool.read!.display.text.length).toBeGreaterThan(0);
    // Every settled call reaches the side channel through the single exit, including lookup failures.
    expect(run.settled).toHaveLength(3);
    expect(byTool['<unknown>']).toMatchObject({ isError: true, display: { mode: 'full' } });
  });
});
