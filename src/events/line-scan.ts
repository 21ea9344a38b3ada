/**
 * The JS half of loading a JSONL file: one pass over its bytes that judges
 * every line exactly as `parseLine()` would, while DuckDB parses the typed
 * columns of the same file on its own threads.
 *
 * Most lines are proven valid by a per-event regex (line-regex.ts) on the
 * latin1 view of their bytes; the rest go through parseLine, which either
 * quarantines them with its reason or accepts them (and the regex learns the
 * line's key order from it). An accepted line no regex can prove is
 * "rescued": DuckDB's lenient reader may have read it differently (duplicate
 * keys, exponents, \u escapes), so its canonical event is handed back and
 * its typed row is rebuilt from it.
 */
import type { EventName, FaultlineEvent } from './schemas.js';
import { forEachLineBytes, isBlankLine, parseLineBytes } from './trace-lines.js';
import type { LineProblem } from './parse-line.js';
import { eventLineRegex } from './line-regex.js';

export interface ScannedBadLine {
  line: number;
  kind: LineProblem;
  reason: string;
}

export interface LineScan {
  lines: number;
  /** Whitespace-only lines, which DuckDB's reader skips (they are also in `bad`). */
  blank: number[];
  bad: ScannedBadLine[];
  rescued: number;
}

/** Key orders learned per event; more than this and a producer is shuffling keys, so its lines just take the slow way. */
const MAX_ORDERS_PER_EVENT = 4;
const EVENT_KEY = '"event":"';
/** The same, for producers that put spaces around the colon (Python's json.dumps does). */
const SPACED_EVENT_KEY = /"event"[ \t]*:[ \t]*"([a-z_]{1,64})"/;

/**
 * The event name a line seems to have, only to pick which regexes to try
 * (a wrong guess cannot pass: each regex requires its own event name).
 */
function eventNameOf(text: string): string | undefined {
  const at = text.indexOf(EVENT_KEY);
  if (at !== -1) {
    const from = at + EVENT_KEY.length;
    return text.slice(from, text.indexOf('"', from));
  }
  return SPACED_EVENT_KEY.exec(text)?.[1];
}

class FastMatcher {
  /** Per event: the compact regex of every learned order, then the general ones (most lines pass the first test). */
  private readonly byEvent = new Map<string, RegExp[]>();
  private readonly orders = new Map<string, number>();

  matches(text: string): boolean {
    const name = eventNameOf(text);
    const list = name === undefined ? undefined : this.byEvent.get(name);
    if (list === undefined) return false;
    for (const re of list) if (re.test(text)) return true;
    return false;
  }

  learn(event: FaultlineEvent, text: string): void {
    if (eventNameOf(text) !== event.event) return;
    const learned = this.orders.get(event.event) ?? 0;
    if (learned >= MAX_ORDERS_PER_EVENT) return;
    // The key order as written: JSON.parse keeps it for non-numeric keys (all of ours).
    const order = Object.keys(JSON.parse(text) as object);
    const compact = eventLineRegex(event.event as EventName, order, 'compact');
    const general = eventLineRegex(event.event as EventName, order, 'general');
    if (compact === null || general === null) return;
    const list = this.byEvent.get(event.event) ?? [];
    list.splice(learned, 0, compact);
    list.push(general);
    this.byEvent.set(event.event, list);
    this.orders.set(event.event, learned + 1);
  }
}

/**
 * Judges every line of `path`. `rescue` receives each accepted line the
 * fast path could not prove, with its canonical event.
 */
export async function scanLines(
  path: string,
  rescue: (line: number, event: FaultlineEvent) => void,
  onBytes?: (bytesRead: number) => void,
): Promise<LineScan> {
  const matcher = new FastMatcher();
  const scan: LineScan = { lines: 0, blank: [], bad: [], rescued: 0 };
  scan.lines = await forEachLineBytes(path, (buf, start, end, line, unterminated) => {
    if (matcher.matches(buf.toString('latin1', start, end))) return;
    if (isBlankLine(buf, start, end)) scan.blank.push(line);
    const bytes = buf.subarray(start, end);
    const verdict = parseLineBytes(bytes, unterminated);
    if (!verdict.ok) {
      scan.bad.push({ line, kind: verdict.kind, reason: verdict.reason });
      return;
    }
    // The first line of a key order teaches it; if the new regex proves the line itself, it needs no rescue.
    const text = bytes.toString('latin1');
    matcher.learn(verdict.event, text);
    if (matcher.matches(text)) return;
    scan.rescued++;
    rescue(line, verdict.event);
  }, onBytes);
  return scan;
}
