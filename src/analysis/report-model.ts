/** The shape every report section has, whatever renders it. */
import type { Row } from './duck.js';
import type { InputFile, LoadStats } from './load.js';

export type { InputFile };

export interface Section {
  id: string;
  title: string;
  columns: string[];
  rows: Row[];
  /** Only drawn as a chart (HTML) and kept in JSON; too long for a terminal table. */
  chartOnly: boolean;
  /** One row of totals (`| summary` in the SQL file): renderers show it as metric/value pairs. */
  summary?: boolean;
  /** Set when the section is capped (`| first N` in the SQL file): the row count before the cut; `rows` holds the first N. */
  totalRows?: number;
}

export interface ReportResult {
  id: string;
  title: string;
  sections: Section[];
}

export interface Analysis {
  load: LoadStats;
  /** Every input file with its line count, emptiness and run ids: what a report header names (the same array as load.inputs). */
  inputs: InputFile[];
  reports: ReportResult[];
}

export function findSection(analysis: Analysis, id: string): Section | undefined {
  for (const r of analysis.reports) for (const s of r.sections) if (s.id === id) return s;
  return undefined;
}
