/**
 * Runs importers over source files into one contract JSONL file, streaming:
 * records are read and events written as they come, so memory does not grow
 * with the input (an importer keeps only what pairing needs, per session).
 */
import { statSync } from 'node:fs';
import type { ImportSummary, QuarantinedLine } from '../analysis/load.js';
import { EventWriter, FileBooks } from './event-writer.js';
import type { Importer } from './types.js';

export interface SourceFile {
  path: string;
  importer: Importer;
}

export interface ImportResult {
  summaries: ImportSummary[];
  quarantined: QuarantinedLine[];
  events: number;
}

export interface ImportProgress {
  bytesRead: number;
  bytesTotal: number;
  file: string;
  events: number;
}

export async function importFiles(files: SourceFile[], out: string, onProgress?: (p: ImportProgress) => void): Promise<ImportResult> {
  const sizes = files.map((f) => statSync(f.path).size);
  const bytesTotal = sizes.reduce((a, b) => a + b, 0);
  const writer = new EventWriter(out);
  const result: ImportResult = { summaries: [], quarantined: [], events: 0 };
  let before = 0;
  try {
    const books = files.map(({ path }) => new FileBooks(path, writer, (bytesRead) => onProgress?.({ bytesRead: before + bytesRead, bytesTotal, file: path, events: writer.events })));
    const joined = new Set<Importer>();
    for (const [i, { path, importer }] of files.entries()) {
      const ctx = books[i] as FileBooks;
      if (importer.importAll) {
        // Every file of a joining format at once, the first time one is met.
        if (!joined.has(importer)) {
          joined.add(importer);
          const mine = files.flatMap((f, j) => (f.importer === importer ? [{ path: f.path, ctx: books[j] as FileBooks }] : []));
          await importer.importAll(mine);
        }
      } else await importer.importFile(path, ctx);
      before += sizes[i] ?? 0;
      onProgress?.({ bytesRead: before, bytesTotal, file: path, events: writer.events });
    }
    for (const [i, { importer }] of files.entries()) {
      const ctx = books[i] as FileBooks;
      result.summaries.push(ctx.summary(importer.name, importer.unit, importer.notes));
      result.quarantined.push(...ctx.quarantined);
    }
  } finally {
    writer.close();
  }
  result.events = writer.events;
  return result;
}
