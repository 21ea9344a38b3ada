/**
 * Resolves CLI path arguments (files, directories, globs) into trace files.
 * Directories are searched recursively for .jsonl, .jsonl.gz and .parquet.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';

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

/** Sorted, de-duplicated absolute paths; throws InputError when an argument matches nothing. */
export async function resolveInputs(args: string[], cwd = process.cwd()): Promise<TraceFile[]> {
  const found = new Set<string>();
  for (const arg of args) {
    const before = found.size;
    // A path that exists is taken literally even if it contains glob characters.
    if (isDynamicPattern(arg) && !existsSync(resolve(cwd, arg))) {
      for (const p of await glob(arg, { cwd, absolute: true, onlyFiles: true })) if (traceFormat(p)) found.add(p);
    } else {
      const abs = resolve(cwd, arg);
      let isDir = false;
      try {
        isDir = statSync(abs).isDirectory();
      } catch {
        throw new InputError(`no such file or directory: ${arg}`);
      }
      if (isDir) for (const p of await glob(TRACE_GLOB, { cwd: abs, absolute: true, onlyFiles: true })) found.add(p);
      else if (traceFormat(abs)) found.add(abs);
      else throw new InputError(`not a trace file (.jsonl, .jsonl.gz or .parquet): ${arg}`);
    }
    if (found.size === before) throw new InputError(`no trace files found for ${arg}`);
  }
  return [...found].sort().map((path) => ({ path, format: traceFormat(path) as TraceFormat }));
}
