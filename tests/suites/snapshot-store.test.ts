/**
 * Where a suite session's snapshots go: a workspace kept for a person
 * (--keep-workspaces) holds them in `.faultline/snapshots` as always; a
 * workspace removed at the session's end holds them in memory, so the
 * session never makes `.faultline` (its `ls` after the edit finds none) and
 * the `snapshot` event is the same.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemorySink } from '../../src/events/sink.js';
import { loadSuites } from '../../src/suites/load-suite.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';

const root = mkdtempSync(join(tmpdir(), 'faultline-snapstore-'));
const source = mockModelSource();
afterAll(async () => {
  await source.close();
  rmSync(root, { recursive: true, force: true });
});

const SUITE = `suite: snapshot-store
tasks:
  - id: edit-then-look
    prompt: fix it
    tools: [read, edit, ls]
    files: { f.txt: "Helo\\n" }
    script:
      - tool_use: [{ name: edit, input: { file_path: f.txt, old_string: Helo, new_string: Hello } }]
      - tool_use: [{ name: ls, input: { path: .faultline/snapshots } }]
      - text: Fixed.
    expect:
      files: { f.txt: { equals: "Hello\\n" } }
`;

async function run(keepWorkspaces: boolean) {
  const file = join(root, `suite-${keepWorkspaces ? 'kept' : 'removed'}.yaml`);
  writeFileSync(file, SUITE);
  const sink = new MemorySink();
  const tempDir = mkdtempSync(join(root, 'tmp-'));
  const summary = await runSuite({ tasks: loadSuites([file]), sink, source, concurrency: 1, tempDir, keepWorkspaces });
  const events = sink.events();
  return { outcome: summary.outcomes[0]!, events, tempDir, ls: events.find((e) => e.event === 'tool_success' || e.event === 'tool_failure' ? (e as { tool: string }).tool === 'ls' : false) };
}

describe('suite snapshots', () => {
  it('a kept workspace has its snapshot on disk', async () => {
    const { outcome, events, ls } = await run(true);
    expect(outcome.outcome).toBe('passed');
    const taken = events.filter((e) => e.event === 'snapshot') as unknown as { snapshot_id: string; snapshot_files: number }[];
    expect(taken).toEqual([expect.objectContaining({ snapshot_files: 1 })]);
    expect(ls?.event).toBe('tool_success');
    const dir = join(outcome.workspace!, '.faultline', 'snapshots', taken[0]!.snapshot_id);
    expect(readFileSync(join(dir, 'files', 'f.txt'), 'utf8')).toBe('Helo\n');
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))).toMatchObject({ tool: 'edit', files: [{ path: 'f.txt' }] });
    rmSync(outcome.workspace!, { recursive: true, force: true });
  });

  it('a workspace removed at the end holds it in memory: the same event, no .faultline, nothing left', async () => {
    const { outcome, events, tempDir, ls } = await run(false);
    expect(outcome.outcome).toBe('passed');
    expect(events.filter((e) => e.event === 'snapshot')).toEqual([expect.objectContaining({ snapshot_action: 'taken', snapshot_files: 1, snapshot_created: 0 })]);
    expect(ls?.event).toBe('tool_failure');
    expect(readdirSync(tempDir)).toEqual([]);
  });
});
