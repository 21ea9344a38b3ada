/**
 * The Anthropic prompt cache as the mock plays it. The API caches a request
 * only up to blocks marked `cache_control` (rendered in the order tools,
 * system, messages), refuses more than 4 such blocks with a 400, and reports
 * per response `cache_read_input_tokens` (the longest marked prefix it had
 * seen before), `cache_creation_input_tokens` (what it wrote past that, up to
 * the last mark) and `input_tokens` (the rest, after the last mark).
 *
 * The mock keeps the marked prefixes of one session and counts tokens as
 * bytes / 4 of the blocks' JSON with their cache_control removed. Unlike the
 * API it caches prefixes of any length (the API needs 1,024 to 4,096 tokens
 * depending on the model), so short scripted sessions show hits.
 *
 * The prefixes are kept as a tree of block texts (prefix-tree.ts): a request
 * walks it once, block by block, instead of hashing its whole history again
 * at every block, so a call costs one JSON text per block and no digest.
 */
import type { Usage } from '../providers/types.js';
import { isObject, type JsonObject } from './json-shape.js';
import { BlockTexts, blockJson } from './block-texts.js';
import { PrefixTree, type PrefixNode } from './prefix-tree.js';

export const MAX_CACHE_CONTROL_BLOCKS = 4;
const TOOL_PREFIX = 'tool:';

/** Calls `visit` with every cacheable block in render order and the text its JSON is prefixed with. */
function eachBlock(body: JsonObject, visit: (value: unknown, prefix: string) => void): void {
  const tools = body['tools'];
  if (Array.isArray(tools)) for (const tool of tools) visit(tool, TOOL_PREFIX);
  const system = body['system'];
  if (typeof system === 'string') visit(system, 'system:');
  else if (Array.isArray(system)) for (const block of system) visit(block, 'system:');
  const messages = body['messages'];
  if (!Array.isArray(messages)) return;
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    if (!isObject(message)) continue;
    const role = `${String(message['role'])}#${i}:`;
    const content = message['content'];
    if (Array.isArray(content)) for (const block of content) visit(block, role);
    else visit(content, role);
  }
}

const isMarked = (value: unknown): boolean => isObject(value) && isObject(value['cache_control']);

/** The API's 400 text when a request marks more than 4 blocks, or null. */
export function cacheControlProblem(body: JsonObject): string | null {
  let found = 0;
  eachBlock(body, (value) => {
    if (isMarked(value)) found++;
  });
  return found > MAX_CACHE_CONTROL_BLOCKS ? `A maximum of ${MAX_CACHE_CONTROL_BLOCKS} blocks with cache_control may be provided. Found ${found}.` : null;
}

/** The memo of these definitions, or null when one carries a cache_control (its text is not its JSON then) or there are none. */
function remember(tools: unknown, texts: string[], bytes: number[]): ToolsMemo | null {
  if (!Array.isArray(tools) || tools.length === 0) return null;
  for (const tool of tools) if (isObject(tool) && Object.hasOwn(tool, 'cache_control')) return null;
  // Each text is 'tool:' + JSON.stringify(definition): the array's JSON is theirs joined.
  const json = texts.map((text) => text.slice(TOOL_PREFIX.length)).join(',');
  return { definitions: `,"tools":[${json}]`, texts, bytes };
}

const tokens = (bytes: number) => Math.ceil(bytes / 4);
/** How many blocks before a breakpoint the API checks for an earlier cached prefix. */
const LOOKBACK_BLOCKS = 20;

/**
 * The tool definitions of a session's last request, as their texts and sizes
 * and as the body ended with them: `,"tools":` + their JSON. A session sends
 * the same definitions on every call, last in the body as the SDK writes it.
 *
 * A body that is valid JSON (the ledger is only given parsed bodies) and ends
 * with `definitions` + `}` (or + `,"stream":true}`) has `tools` as its last
 * member (or the one before `stream`) with exactly that JSON as its value:
 * the comma before `"tools"` cannot sit inside a string (the quote after it
 * would end the string and leave `tools` bare), and the value is balanced, so
 * the closing brace is the body's own. That JSON is the serialization of the
 * remembered definitions, so they are equal to this body's, value for value,
 * and so are their texts: no need to serialize and measure them again.
 */
interface ToolsMemo {
  definitions: string;
  texts: string[];
  bytes: number[];
}

const STREAM_ENDING = ',"stream":true}';

/** Whether `text` ends with the remembered definitions as its last member (or the last but `stream: true`). */
function endsWithDefinitions(text: string, definitions: string): boolean {
  // A slice compared whole: string equality compares memory at once, startsWith goes character by character (20x slower here).
  const plain = text.length - definitions.length - 1;
  if (plain > 0 && text.charCodeAt(text.length - 1) === 0x7d && text.slice(plain, text.length - 1) === definitions) return true;
  const streamed = plain - STREAM_ENDING.length + 1;
  return streamed > 0 && text.endsWith(STREAM_ENDING) && text.slice(streamed, streamed + definitions.length) === definitions;
}

/**
 * The definitions memos of recent sessions. A memo is a function of its
 * definitions text alone (see ToolsMemo), so a session whose body ends with
 * that text may use another session's: a suite's tasks send the same tools,
 * and each new session serialized and measured them again on its first call
 * (and its prefix tree hashed fresh copies of their texts). Few and bounded.
 */
const recentTools: ToolsMemo[] = [];
const RECENT_TOOLS = 4;

function shared(memo: ToolsMemo | null): ToolsMemo | null {
  if (memo === null) return null;
  if (recentTools.length >= RECENT_TOOLS) recentTools.shift();
  recentTools.push(memo);
  return memo;
}

/** The memo whose definitions this body ends with: the session's own, else a recent session's. */
function knownTools(own: ToolsMemo | null, count: number, bodyText: string): ToolsMemo | null {
  if (own !== null && count === own.texts.length && endsWithDefinitions(bodyText, own.definitions)) return own;
  for (let i = recentTools.length - 1; i >= 0; i--) {
    const memo = recentTools[i]!;
    if (memo !== own && count === memo.texts.length && endsWithDefinitions(bodyText, memo.definitions)) return memo;
  }
  return null;
}

export class PromptCacheLedger {
  /** The marked prefixes this session's requests wrote. */
  private readonly cached = new PrefixTree();
  private tools: ToolsMemo | null = null;
  /** The other blocks' texts and sizes, as the last request had them (block-texts.ts). */
  private readonly blocks = new BlockTexts();

  /**
   * The usage of this request as the cache sees it (null when no block is marked: nothing is cached or read).
   * `bodyText`: the text `body` was parsed from, to tell definitions already measured (see ToolsMemo).
   */
  account(body: JsonObject, bodyText?: string): Usage | null {
    const texts: string[] = [];
    const sizes: number[] = [];
    const marks: boolean[] = [];
    let anyMark = false;
    const tools = body['tools'];
    const count = Array.isArray(tools) ? tools.length : 0;
    const known = bodyText !== undefined ? knownTools(this.tools, count, bodyText) : null;
    eachBlock(body, (value, prefix) => {
      const marked = isMarked(value);
      anyMark ||= marked;
      // The definitions come first, in order; the blocks after them as the last request had them where they are the same.
      const index = texts.length;
      if (index < count) {
        const text = known !== null ? known.texts[index]! : blockJson(value, prefix);
        texts.push(text);
        sizes.push(known !== null ? known.bytes[index]! : Buffer.byteLength(text, 'utf8'));
      } else {
        const block = this.blocks.at(index - count, value, prefix);
        texts.push(block.text);
        sizes.push(block.bytes);
      }
      marks.push(marked);
    });
    this.blocks.settle(texts.length - Math.min(count, texts.length));
    if (known === null) this.tools = bodyText !== undefined ? shared(remember(tools, texts.slice(0, count), sizes.slice(0, count))) : null;
    else this.tools = known;
    if (!anyMark) return null;
    // Where each prefix ends (bytes) and, when an earlier request went that far, its node in the tree.
    const ends: number[] = [];
    const seen: Array<PrefixNode | undefined> = [];
    let bytes = 0;
    let node: PrefixNode | undefined = this.cached.root;
    for (let i = 0; i < texts.length; i++) {
      bytes += sizes[i]!;
      ends.push(bytes);
      node = node && PrefixTree.child(node, texts[i]!);
      seen.push(node);
    }
    // A breakpoint also finds a prefix cached at one of the blocks before it (the API looks back about 20 blocks):
    // last turn's breakpoint sat on what is now an earlier block.
    let read = 0;
    let lastMark = 0;
    let lastMarkIndex = -1;
    for (let i = 0; i < texts.length; i++) {
      if (!marks[i]) continue;
      lastMark = ends[i]!;
      lastMarkIndex = i;
      for (let j = i; j >= 0 && i - j < LOOKBACK_BLOCKS; j--) if (seen[j]?.cached === true) read = Math.max(read, ends[j]!);
    }
    this.cached.write(texts, marks, lastMarkIndex, seen);
    const readTokens = tokens(read);
    const writeTokens = tokens(lastMark) - readTokens;
    return { input_tokens: tokens(bytes) - readTokens - writeTokens, output_tokens: 0, cache_read_tokens: readTokens, cache_write_tokens: writeTokens };
  }
}
