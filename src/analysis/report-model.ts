/** The shape every report section has, whatever renders it. */
import type { Row } from './duck.js';
import type { SectionFlag } from './section-flags.js';
import type { InputFile, LoadStats } from './load-types.js';
import type { SessionView } from './session-view-model.js';

export type { InputFile } from './load-types.js';

export interface Section {
  id: string;
  title: string;
  columns: string[];
  rows: Row[];
  /** Only drawn as a chart (HTML), or read by another view (`| data`), and kept in JSON; too long for a terminal table. */
  chartOnly: boolean;
  /** One row of totals (`| summary` in the SQL file): renderers show it as metric/value pairs. */
  summary?: boolean;
  /** Set when the section is capped (`| first N` in the SQL file): the row count before the cut; `rows` holds the first N. */
  totalRows?: number;
  /** Who ran what, when (`| header` in the SQL file): renderers put it in the report's header, not among the tables. */
  header?: boolean;
  /** The cells this section highlights (`-- flag:` lines in the SQL file, section-flags.ts); none: nothing is coloured. */
  flags?: SectionFlag[];
  /** The most terminal lines this section may take (`-- budget: N`); absent: DEFAULT_SECTION_BUDGET (reports.ts). */
  budget?: number;
}

export interface ReportResult {
  id: string;
  title: string;
  sections: Section[];
}


export interface Analysis {
  load: LoadStats;
  reports: ReportResult[];
  /** Every input file with its line count and run ids; renderers name them in the header (the same array as load.inputs). */
  inputs: InputFile[];
  /** The sessions the report's rows name (session-view.ts), for a view of each; absent in figures cached before it. */
  sessions?: SessionView[];
}

export function findSection(analysis: Analysis, id: string): Section | undefined {
  for (const r of analysis.reports) for (const s of r.sections) if (s.id === id) return s;
  return undefined;
}
