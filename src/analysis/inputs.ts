/**
 * Resolves CLI path arguments (files, directories, globs) into trace files.
 * Directories are searched recursively for .jsonl, .jsonl.gz and .parquet,
 * passing over sidecars (sidecars.ts) and dependency and dot folders.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { sidecarTrace } from './sidecars.js';

export type TraceFormat = 'jsonl' | 'parquet';

export interface TraceFile {
  path: string;
  format: TraceFormat;
  /** A temporary file (e.g. imported events): never kept in the row cache. */
  transient?: boolean;
}

const TRACE_GLOB = '**/*.{jsonl,jsonl.gz,parquet}';

export function traceFormat(path: string): TraceFormat | null {
  if (path.endsWith('.jsonl') || path.endsWith('.jsonl.gz')) return 'jsonl';
  if (path.endsWith('.parquet')) return 'parquet';
  return null;
}

export class InputError extends Error {
  readonly code = 'INPUT_ERROR';
}

/**
 * One entry per file on disk, the first name it was given kept: the same file
 * named twice (a path repeated, a directory plus a glob over it, a symlink) is
 * read once, never counted twice.
 */
export function uniqueByRealPath<T extends { path: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    let real = item.path;
    try {
      real = realpathSync(item.path);
    } catch {
      // a dangling name: keep it under its own name, the reader reports it
    }
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  });
}

/** Folders a directory search never enters (dot folders such as .git are left out by the glob itself). */
export const SKIPPED_DIRS = ['**/node_modules/**'];

/** The trace files one argument names; throws InputError when it names none. */
async function filesOf(arg: string, cwd: string): Promise<string[]> {
  const out: string[] = [];
  const sidecars: string[] = [];
  const take = (p: string) => (sidecarTrace(p) === null ? out.push(p) : sidecars.push(p));
  // A path that exists is taken literally even if it contains glob characters.
  if (isDynamicPattern(arg) && !existsSync(resolve(cwd, arg))) {
    for (const p of await glob(arg, { cwd, absolute: true, onlyFiles: true })) if (traceFormat(p)) take(p);
  } else {
    const abs = resolve(cwd, arg);
    let isDir = false;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      throw new InputError(`no such file or directory: ${arg}`);
    }
    if (isDir) (await glob(TRACE_GLOB, { cwd: abs, absolute: true, onlyFiles: true, ignore: SKIPPED_DIRS })).forEach(take);
    else if (traceFormat(abs)) {
      const trace = sidecarTrace(abs);
      if (trace !== null) throw new InputError(`${arg}: a sidecar written beside the trace ${relative(cwd, trace) || trace}, not a trace; name the trace itself`);
      out.push(abs);
    } else throw new InputError(`not a trace file (.jsonl, .jsonl.gz or .parquet): ${arg}`);
  }
  if (out.length === 0) {
    const note = sidecars.length === 0 ? '' : ` (only sidecars, which are not traces: ${sidecars.slice(0, 3).map((p) => relative(cwd, p) || p).join(', ')}${sidecars.length > 3 ? ', ...' : ''})`;
    throw new InputError(`no trace files found for ${arg}${note}`);
  }
  return out;
}

/** Sorted absolute paths, one per real file (uniqueByRealPath); throws InputError when an argument matches nothing. */
export async function resolveInputs(args: string[], cwd = process.cwd()): Promise<TraceFile[]> {
  const found: string[] = [];
  for (const arg of args) found.push(...(await filesOf(arg, cwd)));
  // De-duplicated in argument order (so a file keeps the first name it was given), then sorted.
  const unique = uniqueByRealPath(found.map((path) => ({ path, format: traceFormat(path) as TraceFormat })));
  return unique.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
