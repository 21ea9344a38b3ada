/**
 * One trace file's place in the row cache: `<root>/rows-v<format>/<key>/`,
 * keyed by the file's real path, holding `manifest.json` and the segment
 * directories it names (`seg-<id>/`).
 *
 * Safe with reports running at once: a segment is written under `tmp-<id>/`
 * and renamed to `seg-<id>/` just before the manifest that names it is
 * renamed into place; segments are never changed after that; a reader
 * hard-links the segments it uses into its own directory (reader-dir.ts)
 * before reading, so a writer may drop segments its new manifest no longer
 * names. Two reports that both extend an entry each publish a complete
 * manifest; the last one stays, the other's segment is swept later.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_FORMAT, readManifest, writeManifest, type Manifest, type SegmentRecord } from './manifest.js';
import type { ReaderDir } from './reader-dir.js';

/** An unnamed segment older than this is an orphan (a lost race, a crash), not one about to be named. */
const ORPHAN_SEGMENT_MS = 60_000;
const ORPHAN_TMP_MS = 60 * 60_000;
const ORPHAN_READER_MS = 24 * 60 * 60_000;

export function rowsRoot(cacheRoot: string): string {
  return join(cacheRoot, `rows-v${CACHE_FORMAT}`);
}

/** Where reports under this cache make their private directories. */
export function readersDir(cacheRoot: string): string {
  return join(rowsRoot(cacheRoot), '.readers');
}

export class CacheEntry {
  private constructor(
    readonly dir: string,
    readonly realPath: string,
    readonly fingerprint: string,
  ) {}

  static open(cacheRoot: string, realPath: string, fingerprint: string): CacheEntry {
    const key = createHash('sha256').update(realPath).digest('hex').slice(0, 32);
    const dir = join(rowsRoot(cacheRoot), key);
    mkdirSync(dir, { recursive: true });
    return new CacheEntry(dir, realPath, fingerprint);
  }

  read(): Manifest | null {
    const m = readManifest(this.dir, this.fingerprint);
    return m !== null && m.path === this.realPath ? m : null;
  }

  /** A directory (not yet created) for a segment being written. */
  newSegment(): { id: string; tmp: string } {
    const id = randomBytes(8).toString('hex');
    return { id: `seg-${id}`, tmp: join(this.dir, `tmp-${id}`) };
  }

  segmentDir(id: string): string {
    return join(this.dir, id);
  }

  /** Links every segment of `manifest` into the reader; false when one has gone (a concurrent report replaced it). */
  linkInto(reader: ReaderDir, fileId: number, manifest: Manifest): boolean {
    try {
      for (const s of manifest.segments) reader.add(fileId, { dir: this.segmentDir(s.id), files: s.files, facts: s.facts }, 'link');
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      reader.drop(fileId);
      return false;
    }
  }

  /** Names the written segments (tmp -> seg) and publishes the manifest, then sweeps what nothing names. */
  commit(manifest: Manifest, written: { id: string; tmp: string }[]): void {
    for (const w of written) renameSync(w.tmp, this.segmentDir(w.id));
    writeManifest(this.dir, manifest);
    this.sweep(manifest.segments);
  }

  private sweep(named: SegmentRecord[]): void {
    const keep = new Set(named.map((s) => s.id));
    const now = Date.now();
    for (const name of readdirSync(this.dir)) {
      const limit = name.startsWith('seg-') ? (keep.has(name) ? null : ORPHAN_SEGMENT_MS) : name.startsWith('tmp-') || name.endsWith('.tmp') ? ORPHAN_TMP_MS : null;
      if (limit !== null) removeIfOlder(join(this.dir, name), now - limit);
    }
  }
}

/** Drops reader directories left by reports that crashed. */
export function sweepReaders(cacheRoot: string): void {
  const dir = readersDir(cacheRoot);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const before = Date.now() - ORPHAN_READER_MS;
  for (const name of names) removeIfOlder(join(dir, name), before);
}

function removeIfOlder(path: string, before: number): void {
  try {
    if (statSync(path).mtimeMs < before) rmSync(path, { recursive: true, force: true });
  } catch {
    // Gone already (another report swept it).
  }
}
