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
 * Bounded: a snapshot that would take the session past MAX_BYTES is written
 * to disk as usual.
 */
import type { SnapshotManifest } from './snapshot-manifest.js';

export interface HeldSnapshot {
  readonly manifest: SnapshotManifest;
  /** Saved bytes by path (relative to the workspace's real root). */
  readonly files: ReadonlyMap<string, Buffer>;
}

export class SnapshotMemory {
  static readonly MAX_BYTES = 16 * 1024 * 1024;
  readonly #held = new Map<string, HeldSnapshot>();
  #bytes = 0;

  constructor(private readonly maxBytes = SnapshotMemory.MAX_BYTES) {}

  /** Holds the snapshot `id`; false (nothing held) when it would take the session past its bound. */
  keep(id: string, manifest: SnapshotManifest, copies: readonly { rel: string; data: Buffer }[]): boolean {
    const bytes = copies.reduce((n, c) => n + c.data.length, 0);
    if (this.#bytes + bytes > this.maxBytes) return false;
    this.#bytes += bytes;
    this.#held.set(id, { manifest, files: new Map(copies.map((c) => [c.rel, c.data])) });
    return true;
  }

  get(id: string): HeldSnapshot | undefined {
    return this.#held.get(id);
  }

  /** Bytes held (the saved copies). */
  get bytes(): number {
    return this.#bytes;
  }
}
