/**
 * The cached prefix (docs/harness-rules.md#stable-prefix): tools and system prompt byte-identical from
 * turn to turn, no dynamic content in them, and tools still sent once the
 * conversation holds tool calls. A change is named by its first differing
 * byte range and the tool it falls in. A change that is only dynamic content
 * inside a description (digits of a timestamp, an id) is `dynamic_prefix`,
 * not `tools_changed`, so each cause fires its own check.
 */
import { CheckTally } from './check-result.js';
import type { Exchange, SessionView } from './session-view.js';
import type { Transcript } from './transcript.js';

/** Content that changes every call: a time of day, a date-time, a UUID, an epoch timestamp. Dates alone change once a day and are left alone. */
const DYNAMIC = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\b\d{1,2}:\d{2}:\d{2}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b1[5-9]\d{8}(?:\d{3})?\b/i;

/** The first and last differing byte of two texts, as a half-open range in the new one. */
export function differingRange(before: string, after: string): { from: number; to: number } | null {
  const a = Buffer.from(before);
  const b = Buffer.from(after);
  if (a.equals(b)) return null;
  let from = 0;
  while (from < a.length && from < b.length && a[from] === b[from]) from++;
  let tail = 0;
  while (tail < a.length - from && tail < b.length - from && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return { from, to: b.length - tail };
}

/** Which tool of the array holds byte `offset` of the tools JSON. */
function toolAt(transcript: Transcript, offset: number): string {
  let at = 1; // past '['
  for (const tool of transcript.tools) {
    const end = at + Buffer.byteLength(tool.json);
    if (offset < end) return tool.name;
    at = end + 1; // the comma
  }
  return '(end of the array)';
}

/** Only digits, letters of an id or time punctuation differ, inside a description that carries dynamic content. */
function isDynamicDescriptionChange(before: Transcript, after: Transcript): boolean {
  if (before.tools.length !== after.tools.length) return false;
  return before.tools.every((t, i) => {
    const u = after.tools[i]!;
    if (t.json === u.json) return true;
    const { description: _a, ...restA } = JSON.parse(t.json) as Record<string, unknown>;
    const { description: _b, ...restB } = JSON.parse(u.json) as Record<string, unknown>;
    return t.name === u.name && JSON.stringify(restA) === JSON.stringify(restB) && DYNAMIC.test(t.description) && DYNAMIC.test(u.description);
  });
}

const sameMultiset = (a: Transcript, b: Transcript) => JSON.stringify(a.tools.map((t) => t.json).sort()) === JSON.stringify(b.tools.map((t) => t.json).sort());

export function prefixChecks(view: SessionView): CheckTally[] {
  const changed = new CheckTally('tools_changed');
  const dynamic = new CheckTally('dynamic_prefix');
  const dropped = new CheckTally('tools_dropped');
  const readable = view.exchanges.filter((e): e is Exchange & { transcript: Transcript } => e.transcript !== null);
  let hadTools = false;
  readable.forEach(({ transcript, turn, record }, i) => {
    dynamic.look(`req:${i}`);
    const where = [transcript.system, ...transcript.tools.map((t) => t.description)].find((text) => DYNAMIC.test(text));
    if (where !== undefined) {
      const match = DYNAMIC.exec(where)?.[0] ?? '';
      const place = where === transcript.system ? 'the system prompt' : `the description of ${transcript.tools.find((t) => t.description === where)?.name}`;
      dynamic.flag(`static:${place}`, { turn, detail: `turn ${turn}: ${place} carries dynamic content ("${match}"), which changes the cached prefix on every call` });
    }
    const continues = transcript.messages.some((m) => m.role === 'assistant' && m.uses.length > 0);
    if (hadTools && continues) {
      dropped.look(`req:${i}`);
      if (transcript.tools.length === 0) dropped.flag('dropped', { turn, detail: `turn ${turn}: the request carries no tools although the conversation has tool calls (Anthropic answers 400)` });
    }
    hadTools ||= transcript.tools.length > 0;
    const previous = readable[i - 1]?.transcript;
    if (!previous || record.wire !== readable[i - 1]!.record.wire) return;
    const system = differingRange(previous.system, transcript.system);
    if (system) dynamic.flag(`system:${i}`, { turn, detail: `turn ${turn}: the system prompt changed from the previous turn (bytes ${system.from}-${system.to})` });
    if (previous.toolsJson === '' || transcript.toolsJson === '') return;
    changed.look(`req:${i}`);
    const range = differingRange(previous.toolsJson, transcript.toolsJson);
    if (range === null) return;
    if (isDynamicDescriptionChange(previous, transcript)) {
      dynamic.flag(`desc:${i}`, { turn, detail: `turn ${turn}: a tool description changed with dynamic content (tools bytes ${range.from}-${range.to}, tool ${toolAt(transcript, range.from)})` });
      return;
    }
    const how = sameMultiset(previous, transcript) ? 'the same tools in another order' : `bytes ${range.from}-${range.to} differ, first in tool ${toolAt(transcript, range.from)}`;
    changed.flag(`tools:${i}`, { turn, detail: `turn ${turn}: the tools payload changed from the previous turn (${how}): the cached prefix from there on is lost` });
  });
  return [changed, dynamic, dropped];
}
