/**
 * The files a harness added to its lab workspace, listed as each request
 * arrives and at the session's end: what the lab judges "the call ran" by
 * when a task's call leaves a marker (src/mock/lab/side-effects.ts). Bounded:
 * dependency and VCS folders are not entered, and the walk stops after a few
 * thousand entries (a marker is found long before, at the top of the tree).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const SKIPPED = new Set(['node_modules', '.git', '.venv', '__pycache__']);
const MAX_ENTRIES = 5_000;
const MAX_DEPTH = 6;

/** Relative paths (with `/`) of the regular files and links under `dir` that are not among `initial`. */
export function gainedFiles(dir: string, initial: ReadonlySet<string>): string[] {
  const out: string[] = [];
  let seen = 0;
  const walk = (sub: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(join(dir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return;
      const path = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH && !SKIPPED.has(entry.name)) walk(path, depth + 1);
      } else if (!initial.has(path)) out.push(path);
    }
  };
  walk('', 0);
  return out.sort();
}
