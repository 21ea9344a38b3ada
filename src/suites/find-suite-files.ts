/**
 * Which files `run <folder>` takes as suites. A folder is walked the way a
 * user means it: dependency folders (node_modules) and dot folders (.git,
 * .github, .venv, ...) are someone else's files and are never entered; a
 * symlinked folder is followed once (by its real path), so a link back up the
 * tree cannot loop; and a YAML file found on the walk is a suite only when it
 * says so at its top level (a `tasks:` or `suite:` key), so a CI workflow or
 * a compose file beside the suites is left alone. A file named on the command
 * line is always read as a suite (and its problems reported).
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

/** Folders a walk never enters: installed dependencies. Dot folders are skipped by their leading dot. */
const SKIPPED_DIRS = new Set(['node_modules']);
const SUITE_EXTENSIONS = ['.yaml', '.yml'];
/** A top-level key only a suite has at its top level (checked on the text, so a suite with a YAML mistake still counts and gets its message). */
const SUITE_KEY = /^(?:["']?)(?:tasks|suite)(?:["']?)[ \t]*:/m;

export interface FoundSuites {
  files: string[];
  /** YAML files the walk passed over because they are not suites (named in "no tasks found"). */
  notSuites: string[];
}

export class MissingPathError extends Error {
  constructor(readonly path: string) {
    super(`${path}: no such file or directory`);
  }
}

/** True when a YAML text declares itself a suite at its top level. */
export function looksLikeSuite(text: string): boolean {
  return SUITE_KEY.test(text);
}

export function walkSuiteFiles(paths: string[]): FoundSuites {
  const files: string[] = [];
  const notSuites: string[] = [];
  const seen = new Set<string>();
  const once = (path: string): boolean => {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      return false; // a dangling link or a link loop (ELOOP): nothing to read
    }
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  };
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      if (entry.startsWith('.') || SKIPPED_DIRS.has(entry)) continue;
      const child = join(dir, entry);
      let stats;
      try {
        stats = statSync(child);
      } catch {
        continue; // dangling symlink or ELOOP
      }
      if (stats.isDirectory()) {
        if (once(child)) walk(child);
      } else if (stats.isFile() && SUITE_EXTENSIONS.includes(extname(entry).toLowerCase())) {
        if (!looksLikeSuite(readFileSync(child, 'utf8'))) notSuites.push(child);
        else if (once(child)) files.push(child);
      }
    }
  };
  for (const path of paths) {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      throw new MissingPathError(path);
    }
    if (stats.isDirectory()) {
      if (once(path)) walk(path);
    } else if (once(path)) files.push(path);
  }
  return { files, notSuites };
}
