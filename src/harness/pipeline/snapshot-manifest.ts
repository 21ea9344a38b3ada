/** What a snapshot records: its own file, so the in-memory store and the restorer share it without importing the snapshot stage. */
export interface SnapshotEntry {
  path: string;
  bytes: number;
  /** Permission bits, so a restore gives the file back as it was (absent in snapshots taken before). */
  mode?: number;
}

export interface SnapshotManifest {
  tool: string;
  /** The tool's event label (what `snapshot` events carry, also when it is restored). */
  label?: string;
  tool_use_id: string;
  turn: number;
  trigger: string;
  files: SnapshotEntry[];
  /** Paths that did not exist yet (a rollback deletes them). */
  created: string[];
  notes: string[];
}
