/**
 * Sidecars: files written beside a trace that are not traces, such as the
 * lab's `<trace>.requests.jsonl` (every raw request). They share the trace's
 * folder and its `.jsonl` ending, so every command that reads a trace folder
 * (report, validate, diff, compact, query, export) must pass them over, or a
 * sidecar's lines are quarantined as bad events and `validate` fails a good
 * folder.
 *
 * A file is a sidecar when its name is `<stem>.<kind>.jsonl` and either
 * `<kind>` is one faultline writes or a trace `<stem>.jsonl` (.jsonl.gz,
 * .parquet) sits beside it — and, either way, its first line is not a
 * faultline event, so a trace that merely has a dot in its name
 * (`demo.v2.jsonl`) is still read.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Sidecar kinds faultline writes: `requests` is the lab's raw request log. */
export const SIDECAR_KINDS: readonly string[] = ['requests'];

const SIDECAR_NAME = /^(.+)\.([a-z][a-z0-9_-]*)\.jsonl$/;
/** Enough bytes for any first event line (events are small; a request line may be long, and then it is not an event). */
const FIRST_LINE_BYTES = 64 * 1024;

function firstLine(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(FIRST_LINE_BYTES);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8').split('\n').find((l) => l.trim() !== '') ?? '';
  } finally {
    closeSync(fd);
  }
}

function isEventLine(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && 'event' in value && 'v' in value && 'run_id' in value;
  } catch {
    return false;
  }
}

/** The trace a sidecar belongs to (its path, which may be gone), or null when `path` is not a sidecar. */
export function sidecarTrace(path: string): string | null {
  const match = SIDECAR_NAME.exec(basename(path));
  if (!match) return null;
  const [, stem = '', kind = ''] = match;
  const dir = dirname(path);
  const traces = [`${stem}.jsonl`, `${stem}.jsonl.gz`, `${stem}.parquet`].map((name) => join(dir, name));
  const beside = traces.find((t) => existsSync(t));
  if (!SIDECAR_KINDS.includes(kind) && beside === undefined) return null;
  let line: string;
  try {
    line = firstLine(path);
  } catch {
    return null; // unreadable: the reader names the file and the reason
  }
  if (isEventLine(line)) return null;
  return beside ?? traces[0] ?? null;
}
