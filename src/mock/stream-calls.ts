/**
 * Where the tool calls are in a streamed reply, on each wire: which SSE event
 * carries which piece of which call's arguments. Two uses: a fault that must
 * break the stream inside a call's arguments lands there on every wire (the
 * wires' events differ in number and order, so an event count cannot say it),
 * and the lab can tell, for a broken stream, which calls had their arguments
 * whole before the break and which did not.
 */
import type { Wire } from './wire-errors.js';

interface ArgumentPiece {
  /** Index of the frame in the reply's chunks. */
  frame: number;
  /** The call's position among the reply's calls (0-based). */
  call: number;
  text: string;
}

export interface StreamedCall {
  id: string;
  /** Arguments text the client had received after the delivered frames. */
  received: string;
  /** The whole arguments text of the call. */
  full: string;
  /** The client saw the call start (its id). */
  seen: boolean;
  /** Its arguments arrived whole (every piece delivered). */
  whole: boolean;
}

function data(frame: string): Record<string, unknown> | null {
  // A Gemini JSON-array element: `[{...}`, `,\r\n{...}` (no `data:` line).
  const element = /^[[,]\s*(\{.*\})\]?$/s.exec(frame);
  const line = element ? `data: ${element[1]}` : frame.split('\n').find((l) => l.startsWith('data: '));
  if (!line) return null;
  try {
    const value: unknown = JSON.parse(line.slice(6));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The calls of a reply in stream order (id by position) and every argument piece with its frame. */
function scan(wire: Wire, chunks: readonly string[]): { ids: string[]; opened: number[]; pieces: ArgumentPiece[] } {
  const ids: string[] = [];
  const opened: number[] = [];
  const byKey = new Map<number, number>();
  const pieces: ArgumentPiece[] = [];
  let at = 0;
  const open = (key: number, id: string) => {
    byKey.set(key, ids.length);
    ids.push(id);
    opened.push(at);
  };
  chunks.forEach((frame, index) => {
    at = index;
    const d = data(frame);
    if (!d) return;
    if (wire === 'anthropic') {
      const block = d['content_block'] as Record<string, unknown> | undefined;
      if (d['type'] === 'content_block_start' && block?.['type'] === 'tool_use') open(d['index'] as number, String(block['id']));
      const delta = d['delta'] as Record<string, unknown> | undefined;
      if (d['type'] === 'content_block_delta' && delta?.['type'] === 'input_json_delta') {
        const call = byKey.get(d['index'] as number);
        if (call !== undefined) pieces.push({ frame: at, call, text: String(delta['partial_json'] ?? '') });
      }
    } else if (wire === 'gemini') {
      // Each call arrives whole in one chunk: it is seen and complete at the same frame.
      const candidates = Array.isArray(d['candidates']) ? (d['candidates'] as Array<Record<string, unknown>>) : [];
      const parts = (candidates[0]?.['content'] as Record<string, unknown> | undefined)?.['parts'];
      for (const part of Array.isArray(parts) ? (parts as Array<Record<string, unknown>>) : []) {
        const fn = part['functionCall'] as Record<string, unknown> | undefined;
        if (!fn) continue;
        const key = ids.length;
        open(key, String(fn['id'] ?? fn['name']));
        pieces.push({ frame: at, call: key, text: JSON.stringify(fn['args'] ?? {}) });
      }
    } else if (wire === 'openai') {
      const choices = Array.isArray(d['choices']) ? (d['choices'] as Array<Record<string, unknown>>) : [];
      for (const choice of choices) {
        const calls = (choice['delta'] as Record<string, unknown> | undefined)?.['tool_calls'];
        if (!Array.isArray(calls)) continue;
        for (const c of calls as Array<Record<string, unknown>>) {
          const key = c['index'] as number;
          if (typeof c['id'] === 'string' && !byKey.has(key)) open(key, c['id']);
          const call = byKey.get(key);
          const fn = c['function'] as Record<string, unknown> | undefined;
          if (call !== undefined && typeof fn?.['arguments'] === 'string') pieces.push({ frame: at, call, text: fn['arguments'] });
        }
      }
    } else {
      const item = d['item'] as Record<string, unknown> | undefined;
      if (d['type'] === 'response.output_item.added' && item?.['type'] === 'function_call') open(d['output_index'] as number, String(item['call_id']));
      if (d['type'] === 'response.function_call_arguments.delta') {
        const call = byKey.get(d['output_index'] as number);
        if (call !== undefined) pieces.push({ frame: at, call, text: String(d['delta'] ?? '') });
      }
    }
  });
  return { ids, opened, pieces };
}

/**
 * How many frames to deliver so the stream stops inside the last call's
 * arguments: in their middle, as a max_tokens cut does (after the piece that
 * brings them to half their length), while more of them is still to come (so
 * they are incomplete, and nothing after them, not the finish_reason either,
 * has been sent). A task that puts a call's path first and a long member after
 * it so has the path go out whole: a harness that runs the partial input shows
 * it in the workspace. Null when the reply has no call whose arguments come in
 * two pieces or more.
 */
export function framesInsideLastCall(wire: Wire, chunks: readonly string[]): number | null {
  const { ids, opened, pieces } = scan(wire, chunks);
  const last = ids.length - 1;
  // Gemini sends each call whole in one chunk: the nearest cut is right before the last call's chunk (it never arrives).
  if (wire === 'gemini') return last < 0 ? null : (opened[last] as number);
  const own = pieces.filter((p) => p.call === last && p.text !== '');
  if (last < 0 || own.length < 2) return null;
  const half = own.reduce((n, p) => n + p.text.length, 0) / 2;
  let sent = 0;
  const middle = own.findIndex((p) => (sent += p.text.length) >= half);
  return (own[Math.min(middle, own.length - 2)] as ArgumentPiece).frame + 1;
}

/** The calls of a streamed reply and how much of each one's arguments the first `delivered` frames carried. */
export function streamedCalls(wire: Wire, chunks: readonly string[], delivered: number): StreamedCall[] {
  const { ids, opened, pieces } = scan(wire, chunks);
  return ids.map((id, call) => {
    const own = pieces.filter((p) => p.call === call);
    const full = own.map((p) => p.text).join('');
    const received = own.filter((p) => p.frame < delivered).map((p) => p.text).join('');
    const seen = (opened[call] as number) < delivered;
    return { id, received, full, seen, whole: seen && own.every((p) => p.frame < delivered) };
  });
}
