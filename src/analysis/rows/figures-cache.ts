/**
 * The figures of a report, kept for the next report of the same unchanged
 * inputs: a report is a pure function of the input bytes and of the code
 * that reads them (the contract, the stored columns, the report and derived
 * SQL, the faultline version), so when none of those changed the figures
 * are read back instead of being computed again by DuckDB.
 *
 * It sits on top of the row cache (which still makes a grown trace parse
 * only its new bytes) and uses the same notion of "unchanged"
 * (file-state.ts): identity, size, mtime, checksums of the first and
 * last 64 KiB, and a checksum of every byte (content-hash.ts), so an edit
 * that keeps the size and mtime is seen. Figures are stored only if no input changed while they were
 * computed. At most MAX_ENTRIES are kept (least recently used go first).
 * `--no-cache` skips it, like the row cache.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Column } from '../../events/columns.js';
import type { TraceFile } from '../inputs.js';
import type { Analysis } from '../report-model.js';
import type { ResolvedCache } from './cache-root.js';
import { fileState, markCovered } from './file-state.js';

/** Bump when the stored shape changes. */
const FIGURES_FORMAT = 2;
export const MAX_ENTRIES = 64;

export function figuresDir(cacheRoot: string): string {
  return join(cacheRoot, `figures-v${FIGURES_FORMAT}`);
}

export class FiguresCache {
  private constructor(
    private readonly dir: string,
    private readonly key: string,
    private readonly identify: () => string | null,
    private readonly paths: readonly string[],
  ) {}

  /**
   * The cache slot for these inputs, or null when it does not apply: caching
   * (or this layer of it) off, an input made for this report only (an import), or no input big
   * enough for the row cache to keep (small traces are quicker to read).
   */
  static open(files: readonly TraceFile[], code: string, cache: ResolvedCache | null): FiguresCache | null {
    if (cache === null || !cache.figures || files.length === 0 || files.some((f) => f.transient)) return null;
    const identify = () => inputsKey(files, code);
    try {
      if (!files.some((f) => statSync(f.path).size >= cache.minBytes)) return null;
    } catch {
      return null; // a missing input fails where it is read, naming itself
    }
    const key = identify();
    return key === null ? null : new FiguresCache(figuresDir(cache.root), key, identify, files.map((f) => f.path));
  }

  /**
   * The stored figures, or null. The key is the inputs' real paths, so the report that stored them may
   * have named them otherwise (a symlink, its target, another relative path): every name of an input
   * in them becomes the name this report was given, in the same order.
   */
  read(): Analysis | null {
    const path = join(this.dir, `${this.key}.json`);
    try {
      const stored = JSON.parse(readFileSync(path, 'utf8')) as Analysis;
      const names = stored.load.files;
      if (!Array.isArray(names) || names.length !== this.paths.length) return null;
      const analysis = renamed(stored, new Map(names.map((name, i) => [name, this.paths[i] as string])));
      analysis.inputs = analysis.load.inputs; // one array, as analyzeTraces returns it
      const now = new Date();
      utimesSync(path, now, now); // recently used
      return analysis;
    } catch {
      return null; // absent, or unreadable: computed afresh and written again
    }
  }

  /** Stores the figures if the inputs are still what they were when this slot was opened. Never throws. */
  write(analysis: Analysis): boolean {
    if (this.identify() !== this.key) return false;
    try {
      mkdirSync(this.dir, { recursive: true });
      const tmp = join(this.dir, `.${this.key}.${randomBytes(4).toString('hex')}.tmp`);
      writeFileSync(tmp, JSON.stringify(analysis));
      renameSync(tmp, join(this.dir, `${this.key}.json`)); // readers see a whole file or none
      prune(this.dir);
      return true;
    } catch {
      return false; // an unwritable cache costs only the next report's time
    }
  }
}

/** Every string of `value` that is a key of `names`, replaced by its value (the figures are plain JSON). */
function renamed<T>(value: T, names: ReadonlyMap<string, string>): T {
  if (typeof value === 'string') return (names.get(value) ?? value) as T;
  if (Array.isArray(value)) return value.map((v) => renamed(v, names)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renamed(v, names)])) as T;
  return value;
}

/** What the figures depend on besides the code: each input's real path, format and state. Null if one cannot be read. */
function inputsKey(files: readonly TraceFile[], code: string): string | null {
  try {
    const inputs = files.map((f) => {
      const state = fileState(f.path);
      const mark = markCovered(f.path, state.size);
      return [realpathSync(f.path), f.format, state.dev, state.ino, state.size, state.mtimeMs, mark.headHash, mark.tailHash, mark.contentHash];
    });
    return createHash('sha256').update(JSON.stringify({ format: FIGURES_FORMAT, code, inputs })).digest('hex').slice(0, 40);
  } catch {
    return null;
  }
}

/** What the figures depend on in the code: the row fingerprint (contract, columns, version) and every SQL text a report runs. */
export function figuresCode(rowsFingerprint: string, sqlTexts: readonly string[], columns: readonly Column[]): string {
  const h = createHash('sha256').update(rowsFingerprint).update(JSON.stringify(columns.map((c) => c.name)));
  for (const sql of sqlTexts) h.update('\0').update(sql);
  return h.digest('hex');
}

/** A temporary file older than this was left by a report that died while writing. */
const ORPHAN_TMP_MS = 10 * 60 * 1000;

/** Keeps the MAX_ENTRIES most recently used figures and drops orphaned temporary files. */
function prune(dir: string): void {
  const entries: { name: string; used: number }[] = [];
  for (const name of readdirSync(dir)) {
    let used: number;
    try {
      used = statSync(join(dir, name)).mtimeMs;
    } catch {
      continue; // removed by another report meanwhile
    }
    if (name.endsWith('.tmp')) {
      if (used < Date.now() - ORPHAN_TMP_MS) rmSync(join(dir, name), { force: true });
    } else if (name.endsWith('.json')) entries.push({ name, used });
  }
  entries.sort((a, b) => b.used - a.used);
  for (const e of entries.slice(MAX_ENTRIES)) rmSync(join(dir, e.name), { force: true });
}
