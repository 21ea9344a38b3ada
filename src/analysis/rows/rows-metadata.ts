/**
 * The contract verdicts a compacted Parquet file carries in its key-value
 * metadata (`faultline.rows`): the source files, how many of their lines
 * were read, every quarantined line with its reason, imports of other
 * formats, and per-run seq facts (run-seq.ts). A report over the file
 * shows the same reconciliation as one over its sources.
 */
import { CONTRACT_VERSION } from '../../events/labels.js';
import { sqlString, type Duck } from '../duck.js';
import type { ImportSummary, LoadStats, QuarantinedLine } from '../load-types.js';
import type { RunFact } from './run-seq.js';

export const ROWS_METADATA_KEY = 'faultline.rows';
/** 2: each run's fact has its first and last ts. A format-1 file keeps its verdicts; its facts are counted again. */
const FORMAT = 2;

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

/**
 * null for a Parquet file without it, or written under another contract version or an unknown format;
 * `facts` is null when written under format 1 (facts without ts: they are counted again).
 */
export async function readRowsMetadata(duck: Duck, path: string): Promise<(Omit<RowsMetadata, 'facts'> & { facts: RunFact[] | null }) | null> {
  try {
    const [row] = await duck.rows(`SELECT decode(value) AS v FROM parquet_kv_metadata(${sqlString(path)}) WHERE key = encode(${sqlString(ROWS_METADATA_KEY)})`);
    if (typeof row?.v !== 'string') return null;
    const meta = JSON.parse(row.v) as RowsMetadata;
    if (meta.contract !== CONTRACT_VERSION) return null;
    return meta.format === FORMAT ? meta : meta.format === 1 ? { ...meta, facts: null } : null;
  } catch {
    return null;
  }
}
