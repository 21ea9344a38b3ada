/**
 * Groups records by a key (a trace id) in bounded memory. Span formats
 * (OTLP, the Agents SDK) need every span of a trace before they can build
 * its session, but an export interleaves traces freely. Records are kept in
 * memory up to a limit; past it, all of them go to one of BUCKETS temporary
 * files by a hash of their key, and groups are then rebuilt one bucket at a
 * time, so memory holds about 1/BUCKETS of the input at once.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachLineBytes } from '../events/trace-lines.js';

const BUCKETS = 64;

function bucketOf(key: string): number {
  // FNV-1a: cheap and well spread for hex and uuid keys.
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) % BUCKETS;
}

export class SpillGroups<T> {
  private groups = new Map<string, T[]>();
  private held = 0;
  private dir: string | null = null;
  /** Records spilled, so far (diagnostic). */
  spilled = 0;

  /** `limit`: records held in memory before spilling (each is a small object of the fields an importer needs, about 1-2 KB of heap). */
  constructor(private readonly limit = 50_000) {}

  add(key: string, record: T): void {
    const group = this.groups.get(key);
    if (group) group.push(record);
    else this.groups.set(key, [record]);
    if (++this.held >= this.limit) this.spill();
  }

  private spill(): void {
    this.dir ??= mkdtempSync(join(tmpdir(), 'faultline-groups-'));
    const out: string[][] = Array.from({ length: BUCKETS }, () => []);
    for (const [key, records] of this.groups) {
      const bucket = out[bucketOf(key)] as string[];
      for (const r of records) bucket.push(JSON.stringify([key, r]));
      this.spilled += records.length;
    }
    for (const [i, lines] of out.entries()) if (lines.length > 0) appendFileSync(join(this.dir, `${i}.jsonl`), lines.join('\n') + '\n');
    this.groups = new Map();
    this.held = 0;
  }

  /** Every group, each once, with its records in the order they were added. */
  async each(visit: (key: string, records: T[]) => void): Promise<void> {
    try {
      if (this.dir === null) {
        for (const [key, records] of this.groups) visit(key, records);
        return;
      }
      if (this.held > 0) this.spill();
      for (let i = 0; i < BUCKETS; i++) {
        const groups = new Map<string, T[]>();
        await forEachLineBytes(join(this.dir, `${i}.jsonl`), (buf, start, end) => {
          const [key, record] = JSON.parse(buf.toString('utf8', start, end)) as [string, T];
          const group = groups.get(key);
          if (group) group.push(record);
          else groups.set(key, [record]);
        }).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
        for (const [key, records] of groups) visit(key, records);
      }
    } finally {
      this.groups = new Map();
      if (this.dir) rmSync(this.dir, { recursive: true, force: true });
      this.dir = null;
    }
  }
}
