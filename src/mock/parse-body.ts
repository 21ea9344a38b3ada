/**
 * JSON.parse of a request body, with the tool definitions parsed once. An
 * agent sends the same definitions on every call (the SDKs put `tools` last,
 * or just before `"stream":true`), and they are most of the body: parsing
 * them again was the largest cost of a mocked call. A body that ends with
 * definitions seen before is parsed without them, and they are added back as
 * the value parsed the first time (deep-frozen, so no request can change what
 * another sees). Anything else is parsed whole.
 *
 * Why the result is what JSON.parse(text) gives: `text` is H + T + R, where T
 * is `,"tools":` and a text D that parsed on its own as an array, and R is `}`
 * or `,"stream":true}`. If H + R parses as an object with at least one member
 * and no `tools` member, the parser was at the top level of that object right
 * after a value at the end of H (inside a string, a nested value or after
 * `{` or `,`, H + R does not parse to such an object). So in `text` the parser
 * reads T as one more member whose value is D parsed in isolation (a JSON
 * value's meaning does not depend on what surrounds it), then R. The members
 * keep their order: `tools` goes where T stood, before a trailing `stream`.
 * Whenever a check fails, the whole text is parsed, so errors are JSON.parse's.
 */

export type ParsedBody = { ok: true; value: unknown } | { ok: false };

const TOOLS_KEY = ',"tools":';
const STREAM_END = ',"stream":true}';

interface KnownTools {
  /** `,"tools":[...]` as it appeared in a body. */
  text: string;
  /** Its array, parsed and frozen at the second body that sent it (a one-off set is never parsed twice); null until then. */
  value: readonly unknown[] | null;
}

/** The definitions of recent bodies, most recent last: few (a suite's sessions send the same ones) and bounded. */
const recent: KnownTools[] = [];
const RECENT = 4;

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

/** Where `known` ends in `text` when only `}` or `,"stream":true}` follows it, or null. */
function toolsEnd(text: string, known: string): { end: number; streamed: boolean } | null {
  const plain = text.length - 1 - known.length;
  if (plain > 0 && text.charCodeAt(text.length - 1) === 0x7d && text.slice(plain, text.length - 1) === known) return { end: text.length - 1, streamed: false };
  const streamed = text.length - STREAM_END.length - known.length;
  // A slice compared whole: string equality compares memory at once, endsWith/startsWith go character by character.
  if (streamed > 0 && text.endsWith(STREAM_END) && text.slice(streamed, streamed + known.length) === known) return { end: text.length - STREAM_END.length, streamed: true };
  return null;
}

/** The body parsed with remembered definitions, or undefined when it does not end with them (or a check fails). */
function withKnownTools(text: string): unknown {
  for (let i = recent.length - 1; i >= 0; i--) {
    const known = recent[i]!;
    const at = toolsEnd(text, known.text);
    if (at === null) continue;
    known.value ??= parseTools(known.text);
    if (known.value === null) {
      recent.splice(i, 1);
      return undefined;
    }
    const start = at.end - known.text.length;
    let head: unknown;
    try {
      head = JSON.parse(text.slice(0, start) + (at.streamed ? STREAM_END : '}'));
    } catch {
      return undefined;
    }
    if (typeof head !== 'object' || head === null || Array.isArray(head) || Object.hasOwn(head, 'tools')) return undefined;
    const keys = Object.keys(head);
    if (keys.length === 0) return undefined;
    if (!at.streamed) {
      (head as Record<string, unknown>)['tools'] = known.value;
      return head;
    }
    // `stream` must be the head's last member (an earlier duplicate would keep the first position in `text`).
    if (keys[keys.length - 1] !== 'stream' || keys.length === 1) return undefined;
    const entries: [string, unknown][] = keys.slice(0, -1).map((k) => [k, (head as Record<string, unknown>)[k]]);
    entries.push(['tools', known.value], ['stream', true]);
    // fromEntries defines own members (a `__proto__` member stays a member, as JSON.parse makes it).
    return Object.fromEntries(entries);
  }
  return undefined;
}

/** Remembers the candidate tools text of a body that was parsed whole (validated when a later body ends with it). */
function learn(text: string): void {
  const ending = text.endsWith(STREAM_END) ? text.length - STREAM_END.length : text.charCodeAt(text.length - 1) === 0x7d ? text.length - 1 : -1;
  if (ending < 0) return;
  const start = text.lastIndexOf(TOOLS_KEY, ending);
  if (start <= 0 || text.charCodeAt(ending - 1) !== 0x5d) return;
  const candidate = text.slice(start, ending);
  if (recent.some((k) => k.text === candidate)) return;
  if (recent.length >= RECENT) recent.shift();
  recent.push({ text: candidate, value: null });
}

function parseTools(known: string): readonly unknown[] | null {
  try {
    const value: unknown = JSON.parse(known.slice(TOOLS_KEY.length));
    return Array.isArray(value) ? deepFreeze(value) : null;
  } catch {
    return null;
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
