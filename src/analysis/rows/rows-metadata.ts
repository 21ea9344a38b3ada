/**
 * The contract verdicts a compacted Parquet file carries in its key-value
 * metadata (`faultline.rows`): the source files, how many of their lines
 * were read, every quarantined line with its reason, imports of other
 * formats, and per-run seq facts (run-seq.ts). A report over the file
 * shows the same reconciliation as one over its sources.
 */
import { CONTRACT_VERSION } from '../../events/labels.js';
import { sqlString, type Duck } from '../duck.js';
import type { ImportSummary, LoadStats, QuarantinedLine } from '../load.js';
import type { RunFact } from './run-seq.js';

export const ROWS_METADATA_KEY = 'faultline.rows';
const FORMAT = 1;

export interface RowsMetadata {
  format: number;
  contract: number;
  files: string[];
  linesRead: number;
  quarantined: QuarantinedLine[];
  rescued: number;
  imports: ImportSummary[];
  facts: RunFact[];
}

export function rowsMetadata(load: LoadStats, facts: RunFact[]): RowsMetadata {
  return { format: FORMAT, contract: CONTRACT_VERSION, files: load.files, linesRead: load.linesRead, quarantined: load.quarantined, rescued: load.rescued, imports: load.imports ?? [], facts };
}

/** The COPY option that writes it. */
export function kvMetadataOption(meta: RowsMetadata): string {
  return `KV_METADATA {${sqlString(ROWS_METADATA_KEY)}: ${sqlString(JSON.stringify(meta))}}`;
}

/** null for a Parquet file without it, or written under another format or contract version. */
export async function readRowsMetadata(duck: Duck, path: string): Promise<RowsMetadata | null> {
  try {
    const [row] = await duck.rows(`SELECT decode(value) AS v FROM parquet_kv_metadata(${sqlString(path)}) WHERE key = encode(${sqlString(ROWS_METADATA_KEY)})`);
    if (typeof row?.v !== 'string') return null;
    const meta = JSON.parse(row.v) as RowsMetadata;
    return meta.format === FORMAT && meta.contract === CONTRACT_VERSION ? meta : null;
  } catch {
    return null;
  }
}
