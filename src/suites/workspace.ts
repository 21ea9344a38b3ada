/** A fresh temporary workspace per task, filled with the task's fixture files. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';

export function createWorkspace(files: Record<string, string> = {}, parent = tmpdir()): string {
  // realpath: on some systems tmpdir is a symlink, and the sandbox compares real paths.
  const root = realpathSync(mkdtempSync(join(parent, 'faultline-ws-')));
  for (const [path, content] of Object.entries(files)) {
    const full = resolve(root, path);
    if (!full.startsWith(root + sep)) throw new Error(`fixture path ${path} is outside the workspace`);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return root;
}

export function removeWorkspace(root: string): void {
  rmSync(root, { recursive: true, force: true });
}
