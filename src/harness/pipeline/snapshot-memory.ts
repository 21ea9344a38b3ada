/**
 * Snapshots held in memory, for a session whose workspace is deleted when
 * the session ends (`faultline run` without --keep-workspaces).
 *
 * The snapshot is taken exactly as on disk (snapshot.ts: the same walk below
 * the workspace's real root that never follows a link, the same caps, the
 * same `snapshot` event), and restoreSnapshot writes it back the same way
 * during the session. What is left out is only the copy in the workspace's
 * `.faultline/snapshots`, which nobody can use once the workspace is gone:
 * each one made four inodes (its folder, `files/`, the copy, the manifest)
 * and removed them moments later. On ext4 without a journal every new inode
 * is searched for past the inodes freed in the last 30 seconds, so at
 * thousands of sessions that churn was the largest single cost of a suite
 * run (measured with bench/throughput.ts).
 *
 * Bounded twice: a snapshot that would take the session past MAX_BYTES, or
 * all sessions of this thread together past PROCESS_MAX_BYTES (a run of
 * `-j 1000` sessions must not hold 1000 sessions' worth), is written to disk
 * as usual. release() gives a session's share back when it ends; a session
 * never released only makes later snapshots go to disk.
 */
import type { SnapshotManifest } from './snapshot-manifest.js';

export interface HeldSnapshot {
  readonly manifest: SnapshotManifest;
  /** Saved bytes by path (relative to the workspace's real root). */
  readonly files: ReadonlyMap<string, Buffer>;
}

/** The bytes all sessions of one thread hold (each worker thread has its own). */
export class HeldBytesPool {
  #used = 0;
  constructor(readonly maxBytes: number) {}
  take(bytes: number): boolean {
    if (this.#used + bytes > this.maxBytes) return false;
    this.#used += bytes;
    return true;
  }
  give(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
  }
  get used(): number {
    return this.#used;
  }
}

const THREAD_POOL = new HeldBytesPool(128 * 1024 * 1024);

export class SnapshotMemory {
  static readonly MAX_BYTES = 16 * 1024 * 1024;
  readonly #held = new Map<string, HeldSnapshot>();
  #bytes = 0;

  constructor(
    private readonly maxBytes = SnapshotMemory.MAX_BYTES,
    private readonly pool: HeldBytesPool = THREAD_POOL,
  ) {}

  /** Holds the snapshot `id`; false (nothing held) when it would take the session or the thread past its bound. */
  keep(id: string, manifest: SnapshotManifest, copies: readonly { rel: string; data: Buffer }[]): boolean {
    const bytes = copies.reduce((n, c) => n + c.data.length, 0);
    if (this.#bytes + bytes > this.maxBytes || !this.pool.take(bytes)) return false;
    this.#bytes += bytes;
    this.#held.set(id, { manifest, files: new Map(copies.map((c) => [c.rel, c.data])) });
    return true;
  }

  /** The session ended: its snapshots are dropped and their bytes go back to the thread's pool. */
  release(): void {
    this.pool.give(this.#bytes);
    this.#bytes = 0;
    this.#held.clear();
  }

  get(id: string): HeldSnapshot | undefined {
    return this.#held.get(id);
  }

  /** Bytes held (the saved copies). */
  get bytes(): number {
    return this.#bytes;
  }
}
