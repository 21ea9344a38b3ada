/** Checks every line of a trace file against the contract (used by `faultline validate`). */
import { forEachLineBytes, parseLineBytes } from './trace-lines.js';

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
  result.lines = await forEachLineBytes(file, (buf, start, end, line, unterminated) => {
    const verdict = parseLineBytes(buf.subarray(start, end), unterminated);
    if (verdict.ok) result.valid++;
    else result.bad.push({ file, line, reason: verdict.reason });
  });
  return result;
}
