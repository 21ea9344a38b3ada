/**
 * Trace inputs of any format for `report`, `query`, `diff` and `compact`:
 * the one point where importing meets analysis. Native traces pass through
 * to the loader untouched; files of another format (named by `--format`, or
 * recognised by content) are imported, streaming, into one temporary
 * contract JSONL file that the loader reads like any trace, and the load's
 * books are then put back in the source's terms: its files, its records and
 * its bad lines (file:line: reason), next to the native ones.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import type { ResolvedSources, SourceResolver } from '../analysis/analyze.js';
import { InputError, resolveInputs, uniqueByRealPath, type TraceFile } from '../analysis/inputs.js';
import type { LoadStats } from '../analysis/load.js';
import { sidecarTrace } from '../analysis/sidecars.js';
import { detectFormat, readSample } from './detect.js';
import { importFiles, type ImportProgress, type SourceFile } from './import-files.js';
import { IMPORTERS } from './registry.js';
import type { FormatName, Importer } from './types.js';

/** Files of one named format: files as given, directories searched for its extensions, globs expanded; one per real file. */
export async function resolveFormatFiles(paths: string[], importer: Importer, cwd = process.cwd()): Promise<string[]> {
  const found = new Set<string>();
  const ends = importer.extensions.map((e) => e.replace(/^\./, ''));
  const pattern = ends.length === 1 ? `**/*.${ends[0]}` : `**/*.{${ends.join(',')}}`;
  for (const arg of paths) {
    const abs = resolve(cwd, arg);
    let matched: string[];
    if (isDynamicPattern(arg) && !existsSync(abs)) matched = await glob(arg, { cwd, absolute: true, onlyFiles: true });
    else if (!existsSync(abs)) throw new InputError(`no such file or directory: ${arg}`);
    // A directory's sidecars (the lab's request log) are not records of any format.
    else if (statSync(abs).isDirectory()) matched = (await glob(pattern, { cwd: abs, absolute: true, onlyFiles: true, ignore: ['**/node_modules/**', '**/.git/**'] })).filter((p) => sidecarTrace(p) === null);
    else matched = [abs];
    if (matched.length === 0) throw new InputError(`no ${importer.name} files (${importer.extensions.join(', ')}) found for ${arg}`);
    for (const p of matched) found.add(p);
  }
  const files = uniqueByRealPath([...found].sort().map((path) => ({ path }))).map((f) => f.path);
  return dropCovered(files.map((path) => ({ path, importer }))).map((f) => f.path);
}

/** Files another input reads itself (a τ²-bench results.json reads its simulations/) are left out, so none is read twice. */
export function dropCovered(files: SourceFile[]): SourceFile[] {
  const covered = new Set(files.flatMap((f) => f.importer.covers?.(f.path) ?? []).map((p) => resolve(p)));
  return files.filter((f) => !covered.has(resolve(f.path)));
}

/** Splits inputs into native traces and files to import, by `format` or by content. */
export async function classifyInputs(paths: string[], cwd = process.cwd(), format?: FormatName): Promise<{ native: TraceFile[]; foreign: SourceFile[] }> {
  if (format) {
    const importer = IMPORTERS[format];
    return { native: [], foreign: (await resolveFormatFiles(paths, importer, cwd)).map((path) => ({ path, importer })) };
  }
  const native: TraceFile[] = [];
  const foreign: SourceFile[] = [];
  const take = (file: TraceFile) => {
    const detected = file.format === 'jsonl' && !file.path.endsWith('.gz') ? detectFormat(readSample(file.path)) : null;
    if (detected !== null && detected !== 'faultline') foreign.push({ path: file.path, importer: IMPORTERS[detected] });
    else native.push(file);
  };
  const formats = Object.keys(IMPORTERS).join(', ');
  for (const arg of paths) {
    const abs = resolve(cwd, arg);
    const stat = existsSync(abs) ? statSync(abs) : null;
    if (stat?.isFile() && abs.endsWith('.json')) {
      // A .json file is never a native trace: it must be one of the formats detection knows.
      const detected = detectFormat(readSample(abs));
      if (detected === null || detected === 'faultline') throw new InputError(`${arg}: not a format faultline recognises by content; name it with --format (${formats})`);
      foreign.push({ path: abs, importer: IMPORTERS[detected] });
    } else if (stat?.isDirectory()) {
      // A directory: its traces, plus the .json files of a format detection knows (others, such as a package.json, are not traces).
      const traces = await resolveInputs([arg], cwd).catch((error: unknown) => {
        if (error instanceof InputError) return [];
        throw error;
      });
      traces.forEach(take);
      let unknown = 0;
      for (const path of (await glob('**/*.json', { cwd: abs, absolute: true, onlyFiles: true, ignore: ['**/node_modules/**', '**/.git/**'] })).sort()) {
        const detected = detectFormat(readSample(path));
        if (detected !== null && detected !== 'faultline') foreign.push({ path, importer: IMPORTERS[detected] });
        else unknown++;
      }
      if (traces.length === 0 && foreign.every((f) => !f.path.startsWith(abs))) {
        throw new InputError(`no trace files found for ${arg}${unknown > 0 ? ` (${unknown} .json files in no format faultline recognises; name one with --format: ${formats})` : ''}`);
      }
    } else (await resolveInputs([arg], cwd)).forEach(take);
  }
  // The same file through two arguments (a directory and a glob over it, a symlink) is read once.
  return { native: uniqueByRealPath(native), foreign: dropCovered(uniqueByRealPath(foreign)) };
}

export interface SourceOptions {
  format?: FormatName;
  onProgress?: (progress: ImportProgress) => void;
}

/** The resolver the analysis entry points take (AnalyzeOptions.sources). */
export function importingSources(options: SourceOptions = {}): SourceResolver {
  return async (paths, cwd) => {
    const { native, foreign } = await classifyInputs(paths, cwd, options.format);
    if (foreign.length === 0) return { files: native, finish: () => {}, cleanup: () => {} };
    const dir = mkdtempSync(join(tmpdir(), 'faultline-import-'));
    const cleanup = () => rmSync(dir, { recursive: true, force: true });
    const out = join(dir, 'imported.jsonl');
    try {
      const result = await importFiles(foreign, out, options.onProgress);
      const files: TraceFile[] = result.events > 0 ? [...native, { path: out, format: 'jsonl', transient: true }] : native;
      const finish = (load: LoadStats) => {
        // The temporary file stands for the sources: report their files, their records and their bad lines.
        // In place: an analysis already holds these arrays (analysis.inputs is load.inputs), and every renderer must name the user's files.
        load.files.splice(0, load.files.length, ...load.files.filter((f) => f !== out), ...foreign.map((f) => f.path));
        load.inputs.splice(
          0,
          load.inputs.length,
          ...load.inputs.filter((f) => f.path !== out),
          ...result.summaries.map((s) => ({ path: s.file, lines: s.records, empty: s.records === 0, run_ids: s.run_ids })),
        );
        load.linesRead += result.summaries.reduce((n, s) => n + s.records, 0) - (result.events > 0 ? result.events : 0);
        for (const q of load.quarantined) if (q.file === out) q.file = '(imported events)';
        load.quarantined.push(...result.quarantined);
        load.imports = [...(load.imports ?? []), ...result.summaries];
      };
      return { files, finish, cleanup };
    } catch (error) {
      cleanup();
      throw error;
    }
  };
}

export type { ResolvedSources };
