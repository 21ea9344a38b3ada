/**
 * The files one report reads, in one private directory: every piece's
 * Parquet files laid out hive style as `rows/file_id=<k>/event=<name>/`, so
 * DuckDB reads all inputs as one relation and a per-event view only opens
 * that event's files; and the pieces' per-run facts under `facts/`.
 *
 * Cached segments are hard-linked in (rows/cache-entry.ts): a concurrent
 * report that replaces or drops them cannot pull them away mid-read. Fresh
 * pieces are converted under `work/` and moved in. The directory is removed
 * when the report is done.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { FACTS_FILE } from './convert-jsonl.js';

export interface Piece {
  dir: string;
  /** Parquet files of rows, relative to `dir`, each under `event=<name>/`. */
  files: string[];
  facts: boolean;
}

export class ReaderDir {
  readonly root: string;
  private pieces = 0;
  /** Facts files by input. */
  private readonly factFiles = new Map<number, string[]>();
  /** Row files by input. */
  private readonly rowFiles = new Map<number, number>();

  /** A new private directory under `parent` (the cache's readers directory, or the system temp directory). */
  constructor(parent: string) {
    mkdirSync(parent, { recursive: true });
    this.root = mkdtempSync(join(parent, 'report-'));
  }

  /** A fresh path under work/ for a conversion or a copied byte range. */
  work(name: string): string {
    mkdirSync(join(this.root, 'work'), { recursive: true });
    return join(this.root, 'work', `${name}-${randomBytes(4).toString('hex')}`);
  }

  /** Adds a piece of input `fileId`: `link` for cached segments (the cache keeps them), `move` for fresh ones. */
  add(fileId: number, piece: Piece, how: 'link' | 'move'): void {
    const n = this.pieces++;
    const put = (from: string, to: string) => {
      mkdirSync(dirname(to), { recursive: true });
      if (how === 'move') renameSync(from, to);
      else linkOrCopy(from, to);
    };
    for (const f of piece.files) {
      // f is `event=<name>/data_0.parquet`: keep the event directory, make the name unique.
      put(join(piece.dir, f), join(this.inputDir(fileId), dirname(f), `p${n}-${basename(f)}`));
      this.rowFiles.set(fileId, (this.rowFiles.get(fileId) ?? 0) + 1);
    }
    if (piece.facts) {
      const to = join(this.root, 'facts', `p${n}.parquet`);
      put(join(piece.dir, FACTS_FILE), to);
      this.factFiles.set(fileId, [...(this.factFiles.get(fileId) ?? []), to]);
    }
  }

  /** Forgets every piece of input `fileId` (a cached segment vanished while being linked). */
  drop(fileId: number): void {
    rmSync(this.inputDir(fileId), { recursive: true, force: true });
    for (const f of this.factFiles.get(fileId) ?? []) rmSync(f, { force: true });
    this.factFiles.delete(fileId);
    this.rowFiles.delete(fileId);
  }

  private inputDir(fileId: number): string {
    return join(this.root, 'rows', `file_id=${fileId}`);
  }

  get hasRows(): boolean {
    return [...this.rowFiles.values()].some((n) => n > 0);
  }

  /** The facts files of each input, by file_id. */
  get facts(): ReadonlyMap<number, string[]> {
    return this.factFiles;
  }

  /** The glob of every row file (only meaningful when hasRows). */
  get rowsGlob(): string {
    return join(this.root, 'rows', '*', '*', '*.parquet');
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** A hard link; a copy where the file system has none. */
export function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
    copyFileSync(from, to);
  }
}
