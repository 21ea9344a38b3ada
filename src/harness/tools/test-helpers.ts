/** Temp-dir workspaces for the tool tests (imported only by *.test.ts). */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ToolContext } from './tool.js';

const created: string[] = [];

/** A fresh workspace holding `files` (relative path -> content). */
export async function makeWorkspace(files: Record<string, string | Buffer> = {}): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'faultline-tools-')));
  created.push(dir);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

/** A scratch directory outside any workspace (symlink targets). */
export async function makeOutsideDir(files: Record<string, string> = {}): Promise<string> {
  return makeWorkspace(files);
}

export async function removeWorkspaces(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

export function context(workspace: string, signal: AbortSignal = new AbortController().signal): ToolContext {
  return { workspace, signal };
}
