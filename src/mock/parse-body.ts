/**
 * JSON.parse of a request body, with the tool definitions parsed once. An
 * agent sends the same definitions on every call, and they are most of the
 * body: parsing them again was the largest cost of a mocked call. The SDKs
 * write `tools` near the end, followed by the same few members on every call
 * (`"stream":true`, `"stream_options"`, Gemini's `"generationConfig"`), or by
 * nothing. A body that ends with definitions and a tail seen before is parsed
 * without them, and they are added back as the value parsed the first time
 * (deep-frozen, so no request can change what another sees). Anything else
 * is parsed whole.
 *
 * Why the result is what JSON.parse(text) gives. `text` is H + T + R: T is
 * `,"tools":` and a text D that parses on its own as an array; R is `}`, or
 * `,` + M + `}` where `{` + M + `}` parses on its own as an object.
 * - If H + `}` parses as an object with at least one member, the parser was at
 *   the top level of that object right after a value at the end of H: inside
 *   a string, a nested value, or after `{`, `,`, `:` or a key, H + `}` does
 *   not parse to such an object.
 * - So in `text` the parser reads T as one more member, whose value is D as
 *   parsed alone (a JSON value means the same wherever it stands), and is then
 *   again at the top level after a value; a `,` there is followed by members,
 *   the state `{` puts it in, so R reads as M reads after `{`, and its `}`
 *   ends the text.
 * - JSON.parse defines the members in text order, a name seen before keeping
 *   its place and taking the later value: so does this, with H's members (as
 *   JSON.parse left them), then `tools`, then M's.
 * Whenever a check fails, the whole text is parsed, so errors are JSON.parse's.
 */

import { shareTools } from './shared-tools.js';

export type ParsedBody = { ok: true; value: unknown } | { ok: false };

const TOOLS_KEY = ',"tools":';
/** A tail longer than this is not remembered (it would be compared and parsed on every call). */
const MAX_TAIL = 512;

interface KnownTools {
  /** `,"tools":[...]` as it appeared in a body. */
  text: string;
  /** What followed it to the end of that body. */
  tail: string;
  /**
   * The array, parsed and frozen at the second body that sent it (a one-off set is not parsed twice); null until
   * then; false once a body ending this way failed a check (it is then parsed whole, and not learned again).
   */
  value: readonly unknown[] | null | false;
}

/** The definitions of recent bodies, most recent last: few (a suite's sessions send the same ones) and bounded. */
const recent: KnownTools[] = [];
const RECENT = 4;

type Members = Record<string, unknown>;

export function parseBody(text: string): ParsedBody {
  const fast = withKnownTools(text);
  if (fast !== undefined) return { ok: true, value: fast };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  learn(text);
  return { ok: true, value };
}

/** Where `known` starts in `text` when the text ends with it and its tail, or -1. */
function startOf(text: string, known: KnownTools): number {
  const tailAt = text.length - known.tail.length;
  const start = tailAt - known.text.length;
  // Slices compared whole: string equality compares memory at once, endsWith/startsWith go character by character.
  if (start <= 0 || text.slice(tailAt) !== known.tail || text.slice(start, tailAt) !== known.text) return -1;
  return start;
}

/** The body parsed with remembered definitions, or undefined when it does not end with them (or a check fails). */
function withKnownTools(text: string): unknown {
  for (let i = recent.length - 1; i >= 0; i--) {
    const known = recent[i]!;
    const start = startOf(text, known);
    if (start < 0) continue;
    known.value ??= parseTools(known.text);
    if (known.value === false) return undefined;
    const value = assemble(text.slice(0, start), known.value, known.tail);
    // A body that parses but not to such an object: this split is not to be trusted again (an invalid body says nothing).
    if (value === undefined) known.value = false;
    return value ?? undefined;
  }
  return undefined;
}

/** H's members, `tools`, then the tail's, when the checks of the proof above hold; undefined when they do not, null when H + `}` or the tail is no JSON. */
function assemble(head: string, tools: readonly unknown[], tail: string): Members | undefined | null {
  let out: unknown;
  let more: unknown = {};
  try {
    out = JSON.parse(head + '}');
    if (tail !== '}') more = JSON.parse('{' + tail.slice(1));
  } catch {
    return null;
  }
  if (!isPlainObject(out) || !isPlainObject(more) || Object.keys(out).length === 0) return undefined;
  // Defined in text order, as JSON.parse does: a name seen before keeps its place and takes the later value.
  out['tools'] = tools;
  if (tail !== '}') for (const key of Object.keys(more)) define(out, key, more[key]);
  return out;
}

/**
 * A member as JSON.parse defines it. A plain store does the same on a parsed object (its members are plain data,
 * Object.prototype has no setter) except for `__proto__`, which a store would take as the prototype: only that
 * name goes through defineProperty. defineProperty for every member (a descriptor object and a runtime call
 * each) made parseBody 11% slower on the adapter's bodies (3.11 vs 2.76 us, median of 6).
 */
function define(target: Members, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

function isPlainObject(value: unknown): value is Members {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Remembers the last `,"tools":[...]` of a body parsed whole and what follows it (checked when a later body ends the same way). */
function learn(text: string): void {
  const start = text.lastIndexOf(TOOLS_KEY + '[');
  if (start <= 0) return;
  const end = arrayEnd(text, start + TOOLS_KEY.length);
  if (end < 0 || text.length - end > MAX_TAIL) return;
  const tail = text.slice(end);
  if (tail !== '}' && !(tail.startsWith(',"') && tail.endsWith('}'))) return;
  const candidate = text.slice(start, end);
  if (recent.some((k) => k.tail === tail && k.text === candidate)) return;
  if (recent.length >= RECENT) recent.shift();
  recent.push({ text: candidate, tail, value: null });
}

/** The index just past the `]` that closes the array opening at `from`, skipping strings; -1 if it does not close. */
function arrayEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote, past escapes.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) {
      if (--depth === 0) return c === 0x5d ? i + 1 : -1;
    }
  }
  return -1;
}

function parseTools(known: string): readonly unknown[] | false {
  try {
    const value: unknown = JSON.parse(known.slice(TOOLS_KEY.length));
    if (!Array.isArray(value)) return false;
    shareTools(deepFreeze(value));
    return value;
  } catch {
    return false;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Forget the remembered definitions (tests). */
export function forgetKnownTools(): void {
  recent.length = 0;
}
