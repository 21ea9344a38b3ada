/** Checks every line of a trace file against the contract (used by `faultline validate`). */
import { parseLine } from './parse-line.js';
import { traceLines } from './trace-lines.js';

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

export async function checkTraceFile(file: string): Promise<TraceCheck> {
  const result: TraceCheck = { file, lines: 0, valid: 0, bad: [] };
  for await (const { line, text, unterminated } of traceLines(file)) {
    result.lines++;
    if (text.trim() === '') {
      result.bad.push({ file, line, reason: 'empty line' });
      continue;
    }
    const verdict = parseLine(text, { unterminated });
    if (verdict.ok) result.valid++;
    else result.bad.push({ file, line, reason: verdict.reason });
  }
  return result;
}
