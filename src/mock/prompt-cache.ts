/**
 * The Anthropic prompt cache as the mock plays it. The API caches a request
 * only up to blocks marked `cache_control` (rendered in the order tools,
 * system, messages), refuses more than 4 such blocks with a 400, and reports
 * per response `cache_read_input_tokens` (the longest marked prefix it had
 * seen before), `cache_creation_input_tokens` (what it wrote past that, up to
 * the last mark) and `input_tokens` (the rest, after the last mark).
 *
 * The mock keeps the marked prefixes of one session (a hash each) and counts
 * tokens as bytes / 4 of the blocks' JSON with their cache_control removed.
 * Unlike the API it caches prefixes of any length (the API needs 1,024 to
 * 4,096 tokens depending on the model), so short scripted sessions show hits.
 */
import { createHash } from 'node:crypto';
import type { Usage } from '../providers/types.js';
import { isObject, type JsonObject } from './json-shape.js';

export const MAX_CACHE_CONTROL_BLOCKS = 4;

/** The API's 400 text when a request marks more than 4 blocks, or null. */
export function cacheControlProblem(body: JsonObject): string | null {
  const found = blocks(body).filter((b) => b.marked).length;
  return found > MAX_CACHE_CONTROL_BLOCKS ? `A maximum of ${MAX_CACHE_CONTROL_BLOCKS} blocks with cache_control may be provided. Found ${found}.` : null;
}

interface Block {
  json: string;
  marked: boolean;
}

/** Every cacheable block in render order, as JSON without its cache_control. */
function blocks(body: JsonObject): Block[] {
  const out: Block[] = [];
  const add = (value: unknown, prefix: string) => {
    if (!isObject(value)) {
      out.push({ json: prefix + JSON.stringify(value), marked: false });
      return;
    }
    const { cache_control: mark, ...rest } = value;
    out.push({ json: prefix + JSON.stringify(rest), marked: isObject(mark) });
  };
  if (Array.isArray(body['tools'])) for (const tool of body['tools']) add(tool, 'tool:');
  const system = body['system'];
  if (typeof system === 'string') add(system, 'system:');
  else if (Array.isArray(system)) for (const block of system) add(block, 'system:');
  if (Array.isArray(body['messages'])) {
    body['messages'].forEach((message, i) => {
      if (!isObject(message)) return;
      const role = `${String(message['role'])}#${i}:`;
      const content = message['content'];
      if (Array.isArray(content)) for (const block of content) add(block, role);
      else add(content, role);
    });
  }
  return out;
}

const tokens = (bytes: number) => Math.ceil(bytes / 4);
/** How many blocks before a breakpoint the API checks for an earlier cached prefix. */
const LOOKBACK_BLOCKS = 20;

export class PromptCacheLedger {
  private readonly cached = new Set<string>();

  /** The usage of this request as the cache sees it (null when no block is marked: nothing is cached or read). */
  account(body: JsonObject): Usage | null {
    const all = blocks(body);
    if (!all.some((b) => b.marked)) return null;
    const hash = createHash('sha256');
    let bytes = 0;
    const prefixes: Array<{ key: string; bytes: number; marked: boolean }> = [];
    for (const block of all) {
      hash.update(block.json);
      bytes += Buffer.byteLength(block.json, 'utf8');
      prefixes.push({ key: hash.copy().digest('hex'), bytes, marked: block.marked });
    }
    // A breakpoint also finds a prefix cached at one of the blocks before it (the API looks back about 20 blocks):
    // last turn's breakpoint sat on what is now an earlier block.
    let read = 0;
    let lastMark = 0;
    prefixes.forEach((p, i) => {
      if (!p.marked) return;
      lastMark = p.bytes;
      for (let j = i; j >= 0 && i - j < LOOKBACK_BLOCKS; j--) if (this.cached.has(prefixes[j]!.key)) read = Math.max(read, prefixes[j]!.bytes);
    });
    for (const p of prefixes) if (p.marked) this.cached.add(p.key);
    const readTokens = tokens(read);
    const writeTokens = tokens(lastMark) - readTokens;
    return { input_tokens: tokens(bytes) - readTokens - writeTokens, output_tokens: 0, cache_read_tokens: readTokens, cache_write_tokens: writeTokens };
  }
}
