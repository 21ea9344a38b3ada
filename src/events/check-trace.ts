/** Checks every line of a trace file against the contract (used by `faultline validate`). */
import { scanLines } from './line-scan.js';

export interface BadLine {
  file: string;
  line: number;
  reason: string;
}

export interface TraceCheck {
  file: string;
  lines: number;
  valid: number;
  bad: BadLine[];
}

/** The same line judge the report's quarantine uses, so the two always agree. */
export async function checkTraceFile(file: string): Promise<TraceCheck> {
  const scan = await scanLines(file, () => {});
  const bad = scan.bad.map(({ line, reason }) => ({ file, line, reason }));
  return { file, lines: scan.lines, valid: scan.lines - bad.length, bad };
}
