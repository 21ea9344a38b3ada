/** `faultline query`: ad-hoc SQL over the same views the reports read (every contract column loaded). */
import { openTraces, type AnalyzeOptions } from './analyze.js';
import type { Row } from './duck.js';
import type { LoadStats } from './load.js';

export interface QueryResult {
  columns: string[];
  rows: Row[];
  load: LoadStats;
}

export async function queryTraces(sql: string, paths: string[], options: AnalyzeOptions = {}): Promise<QueryResult> {
  const { duck, load } = await openTraces(paths, { ...options, columns: 'all' });
  try {
    return { ...(await duck.query(sql)), load };
  } finally {
    duck.close();
  }
}
