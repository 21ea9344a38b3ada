/**
 * `faultline run --workspace-dir <dir>` makes every task workspace in <dir>
 * (on the main thread and on worker threads, kept or removed) and leaves
 * nothing there once the run ends; a dir that is missing or not a directory
 * is refused before anything runs.
 */
import { readdirSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';
import { cli } from './cli-io.js';

function suite(dir: string, tasks: number): string {
  let text = 'suite: workspace-dir\ndefaults: { max_turns: 3, tools: [read] }\ntasks:\n';
  for (let i = 0; i < tasks; i++) {
    text += `  - id: read-${i}
    prompt: Read notes.txt.
    files: { notes.txt: "note ${i}\\n" }
    script:
      - tool_use: [{ name: read, input: { file_path: notes.txt } }]
      - text: Read it.
    expect:
      files: { notes.txt: { equals: "note ${i}\\n" } }
`;
  }
  const file = join(dir, 'suite.yaml');
  writeFileSync(file, text);
  return file;
}

/** Runs the CLI while noting every name created directly in `watched`. */
async function runWatching(watched: string, args: string[]) {
  const seen = new Set<string>();
  const watcher = watch(watched, (_kind, name) => void (name !== null && seen.add(String(name))));
  try {
    const result = await cli(args);
    // inotify reports asynchronously: let the last events arrive.
    await new Promise((r) => setTimeout(r, 50));
    return { ...result, seen: [...seen] };
  } finally {
    watcher.close();
  }
}

describe('faultline run --workspace-dir', () => {
  it('makes the workspaces there on the main thread and removes them', async () => {
    const dir = tempDir();
    const where = tempDir();
    const ran = await runWatching(where, ['run', suite(dir, 3), '--workers', '1', '--workspace-dir', where, '--out', join(dir, 't.jsonl')]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.seen.filter((n) => n.startsWith('faultline-ws-'))).toHaveLength(3);
    expect(readdirSync(where)).toEqual([]);
  });

  it('puts each worker thread\'s workspaces under it and removes them', async () => {
    const dir = tempDir();
    const where = tempDir();
    const ran = await runWatching(where, ['run', suite(dir, 4), '--workers', '2', '-j', '4', '--workspace-dir', where, '--out', join(dir, 't.jsonl')]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.seen.filter((n) => n.startsWith('faultline-worker-'))).toHaveLength(2);
    expect(readdirSync(where)).toEqual([]);
  });

  it('keeps them there with --keep-workspaces, and prints where', async () => {
    const dir = tempDir();
    const where = tempDir();
    const ran = await cli(['run', suite(dir, 2), '--workers', '1', '--keep-workspaces', '--workspace-dir', where, '--out', join(dir, 't.jsonl')]);
    expect(ran.code, ran.stderr).toBe(0);
    const printed = [...ran.stdout.matchAll(/^ {2}workspace: (\S+)$/gm)].map((m) => m[1]);
    expect(printed).toHaveLength(2);
    for (const path of printed) expect(path!.startsWith(join(where, 'faultline-ws-'))).toBe(true);
    expect(readdirSync(where).sort()).toEqual(printed.map((p) => p!.slice(where.length + 1)).sort());
  });

  it('refuses a dir that does not exist or is a file, naming it, before the run starts', async () => {
    const dir = tempDir();
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    for (const [given, reason] of [[join(dir, 'missing'), 'no such directory'], [file, 'not a directory']] as const) {
      const ran = await cli(['run', suite(dir, 1), '--workspace-dir', given, '--out', join(dir, 't.jsonl')]);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toBe(`faultline: --workspace-dir ${given}: ${reason}\n`);
      expect(readdirSync(dir).sort()).toEqual(['a-file', 'suite.yaml']);
    }
  });
});
