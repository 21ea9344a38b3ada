/**
 * The mock's prompt cache walks a tree of block texts; these check its figures
 * against the rule written out plainly (every marked prefix hashed whole, as
 * the mock first did it) over sessions that grow, change their tools, move
 * their breakpoints and reach back past the look-back window.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { JsonObject } from './json-shape.js';
import { cacheControlProblem, PromptCacheLedger } from './prompt-cache.js';

/** The plain rule: hash every prefix, remember the marked ones, read the longest remembered within 20 blocks of a mark. */
class PlainLedger {
  private readonly cached = new Set<string>();
  account(body: JsonObject) {
    const blocks: Array<{ json: string; marked: boolean }> = [];
    const add = (value: unknown, prefix: string) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return void blocks.push({ json: prefix + JSON.stringify(value), marked: false });
      const { cache_control: mark, ...rest } = value as JsonObject;
      blocks.push({ json: prefix + JSON.stringify(rest), marked: typeof mark === 'object' && mark !== null && !Array.isArray(mark) });
    };
    for (const tool of (body['tools'] as unknown[] | undefined) ?? []) add(tool, 'tool:');
    const system = body['system'];
    if (typeof system === 'string') add(system, 'system:');
    else if (Array.isArray(system)) for (const b of system) add(b, 'system:');
    ((body['messages'] as JsonObject[] | undefined) ?? []).forEach((m, i) => {
      const content = m['content'];
      if (Array.isArray(content)) for (const b of content) add(b, `${String(m['role'])}#${i}:`);
      else add(content, `${String(m['role'])}#${i}:`);
    });
    if (!blocks.some((b) => b.marked)) return null;
    const hash = createHash('sha256');
    let bytes = 0;
    const prefixes = blocks.map((b) => {
      hash.update(b.json);
      bytes += Buffer.byteLength(b.json, 'utf8');
      return { key: hash.copy().digest('hex'), bytes, marked: b.marked };
    });
    let read = 0;
    let lastMark = 0;
    prefixes.forEach((p, i) => {
      if (!p.marked) return;
      lastMark = p.bytes;
      for (let j = i; j >= 0 && i - j < 20; j--) if (this.cached.has(prefixes[j]!.key)) read = Math.max(read, prefixes[j]!.bytes);
    });
    for (const p of prefixes) if (p.marked) this.cached.add(p.key);
    const t = (n: number) => Math.ceil(n / 4);
    return { input_tokens: t(bytes) - t(read) - (t(lastMark) - t(read)), output_tokens: 0, cache_read_tokens: t(read), cache_write_tokens: t(lastMark) - t(read) };
  }
}

const STRINGIFY = JSON.stringify.bind(JSON);
const mark = { type: 'ephemeral' };
const tool = (name: string) => ({ name, description: `the ${name} tool — ünïcode`, input_schema: { type: 'object', properties: { path: { type: 'string' } } } });

/** A growing conversation: the system prompt marked, the last block of the last message marked (the harness's layout). */
function conversation(turns: number, options: { tools?: string[]; markSystem?: boolean; lastMarked?: boolean; stringContent?: boolean } = {}): JsonObject {
  const messages: JsonObject[] = [{ role: 'user', content: options.stringContent ? 'Fix the typo.' : [{ type: 'text', text: 'Fix the typo.' }] }];
  for (let t = 1; t < turns; t++) {
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `turn ${t}` }, { type: 'tool_use', id: `toolu_${t}`, name: 'read', input: { path: `f${t}.txt` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${t}`, content: `line ${t}\n`.repeat(t) }] });
  }
  const last = messages.at(-1)!;
  if (options.lastMarked !== false && Array.isArray(last['content'])) {
    const blocks = last['content'] as JsonObject[];
    blocks[blocks.length - 1] = { ...blocks.at(-1)!, cache_control: mark };
  }
  return {
    model: 'mock-claude',
    max_tokens: 100,
    tools: (options.tools ?? ['read', 'edit']).map(tool),
    system: options.markSystem === false ? 'Be careful.' : [{ type: 'text', text: 'Be careful.', cache_control: mark }],
    messages,
  };
}

function both(bodies: JsonObject[]) {
  const tree = new PromptCacheLedger();
  const plain = new PlainLedger();
  return bodies.map((body) => ({ tree: tree.account(structuredClone(body)), plain: plain.account(structuredClone(body)) }));
}

describe('mock prompt cache', () => {
  it('reads what the previous turn wrote, and gives the plain rule\'s figures on a growing session', () => {
    const rows = both([1, 2, 3, 4, 5].map((turns) => conversation(turns)));
    for (const row of rows) expect(row.tree).toEqual(row.plain);
    expect(rows[0]!.tree!.cache_read_tokens).toBe(0);
    expect(rows[0]!.tree!.cache_write_tokens).toBeGreaterThan(0);
    expect(rows[1]!.tree!.cache_read_tokens).toBe(rows[0]!.tree!.cache_write_tokens);
    expect(rows[4]!.tree!.cache_read_tokens).toBeGreaterThan(rows[3]!.tree!.cache_read_tokens!);
  });

  it('misses after the tools change, and only the system prefix is read again when the history is replaced', () => {
    const rows = both([conversation(2), conversation(3, { tools: ['read', 'write'] }), conversation(3, { tools: ['read', 'write'] }), conversation(2, { stringContent: true })]);
    for (const row of rows) expect(row.tree).toEqual(row.plain);
    expect(rows[1]!.tree!.cache_read_tokens).toBe(0);
    expect(rows[2]!.tree!.cache_read_tokens).toBeGreaterThan(0);
  });

  it('reaches back 20 blocks from a breakpoint and no further', () => {
    // Turn 4's mark is block 12; turn 10's mark (block 30) looks back to block 11, turn 11's (block 33) only to 14.
    const within = both([conversation(4, { markSystem: false }), conversation(10, { markSystem: false })]);
    const beyond = both([conversation(4, { markSystem: false }), conversation(11, { markSystem: false })]);
    for (const row of [...within, ...beyond]) expect(row.tree).toEqual(row.plain);
    expect(within[1]!.tree!.cache_read_tokens).toBe(within[0]!.tree!.cache_write_tokens);
    expect(beyond[1]!.tree!.cache_read_tokens).toBe(0);
  });

  it('gives the plain rule\'s figures from the body text too, where the definitions it ended with last time are not serialized again', () => {
    // The SDK's key order: the definitions last, `stream` after them on a streamed call.
    const sdk = ({ tools, ...rest }: JsonObject, stream = false) => JSON.stringify({ ...rest, tools, ...(stream ? { stream: true } : {}) });
    const nested = conversation(3);
    // A nested `tools` member last in a message: the text's last `,"tools":` is then not the body's definitions.
    ((nested['messages'] as JsonObject[])[1]!['content'] as JsonObject[])[1]!['input'] = { path: 'x', tools: ['read'] };
    const texts = [
      ...[1, 2, 3].map((turns) => sdk(conversation(turns))),
      sdk(conversation(4), true),
      sdk(conversation(5), true),
      sdk(nested),
      ...[4, 5].map((turns) => sdk(conversation(turns, { tools: ['read', 'write'] }))),
      // No system prompt: the breakpoint sits on the last definition.
      ...[5, 6].map((turns) => sdk(conversation(turns, { tools: ['read', 'write'], markSystem: false }))),
      JSON.stringify(JSON.parse(sdk(conversation(6, { tools: ['read', 'write'] }))), null, 1),
      sdk(conversation(7, { tools: ['read', 'write'] })),
      sdk(conversation(7, { tools: ['read'] })),
    ];
    const tree = new PromptCacheLedger();
    const plain = new PlainLedger();
    for (const text of texts) expect(tree.account(JSON.parse(text) as JsonObject, text)).toEqual(plain.account(JSON.parse(text) as JsonObject));
  });

  it('serializes the definitions once per session when the body ends with them', () => {
    const text = (turns: number) => {
      const { tools, ...rest } = conversation(turns);
      return JSON.stringify({ ...rest, tools });
    };
    const ledger = new PromptCacheLedger();
    ledger.account(JSON.parse(text(1)) as JsonObject, text(1));
    const body = JSON.parse(text(2)) as JsonObject;
    const serialized: unknown[] = [];
    const spy = vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
      serialized.push(args[0]);
      return STRINGIFY(...args);
    });
    try {
      ledger.account(body, text(2));
    } finally {
      spy.mockRestore();
    }
    expect(serialized.length).toBeGreaterThan(0);
    for (const tool of body['tools'] as unknown[]) expect(serialized).not.toContain(tool);
  });

  it('uses the definitions another session measured when its body ends with the same ones, and gives the plain rule\'s figures', () => {
    const sdk = (body: JsonObject) => {
      const { tools, ...rest } = body;
      return JSON.stringify({ ...rest, tools });
    };
    const first = sdk(conversation(2, { tools: ['grep', 'glob'] }));
    new PromptCacheLedger().account(JSON.parse(first) as JsonObject, first);
    const text = sdk(conversation(1, { tools: ['grep', 'glob'] }));
    const body = JSON.parse(text) as JsonObject;
    const serialized: unknown[] = [];
    const spy = vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
      serialized.push(args[0]);
      return STRINGIFY(...args);
    });
    let usage;
    try {
      usage = new PromptCacheLedger().account(body, text);
    } finally {
      spy.mockRestore();
    }
    for (const tool of body['tools'] as unknown[]) expect(serialized).not.toContain(tool);
    // A fresh session reads nothing, whoever measured the definitions before.
    expect(usage).toEqual(new PlainLedger().account(JSON.parse(text) as JsonObject));
    expect(usage!.cache_read_tokens).toBe(0);
  });

  it('serializes a block again only where it is not the one the last request had at that place', () => {
    const ledger = new PromptCacheLedger();
    ledger.account(conversation(2));
    const body = conversation(3);
    const serialized: unknown[] = [];
    const spy = vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
      serialized.push(args[0]);
      return STRINGIFY(...args);
    });
    try {
      ledger.account(body);
    } finally {
      spy.mockRestore();
    }
    const [first, reply, result, , last] = body['messages'] as Array<{ content: JsonObject[] }>;
    const toolUseIds = serialized.map((value) => (value as JsonObject)['tool_use_id']);
    // Sent as the last request had them: the system prompt, the prompt, the first result (its breakpoint moved on). Serialized:
    // the tool call (its input is an object) and what is new.
    expect(serialized.map((value) => JSON.stringify(value))).not.toContain(JSON.stringify({ type: 'text', text: 'Be careful.' }));
    expect(serialized).not.toContain(first!.content[0]);
    expect(toolUseIds).not.toContain(result!.content[0]!['tool_use_id']);
    expect(serialized).toContain(reply!.content[1]);
    expect(toolUseIds).toContain(last!.content[0]!['tool_use_id']);
  });

  it('gives the plain rule\'s figures when a block at the same place changes a member, its key order, or turns into a string', () => {
    const edited = (turns: number, edit: (messages: JsonObject[]) => void) => {
      const body = conversation(turns);
      edit(body['messages'] as JsonObject[]);
      return body;
    };
    const rows = both([
      conversation(3),
      edited(3, (m) => ((m[0]!['content'] as JsonObject[])[0]!['text'] = 'Fix the typos.')),
      edited(3, (m) => ((m[0]!['content'] as JsonObject[])[0] = { text: 'Fix the typos.', type: 'text' })),
      edited(3, (m) => ((m[2]!['content'] as JsonObject[])[0]!['is_error'] = true)),
      edited(3, (m) => (m[0]!['content'] = 'Fix the typos.')),
      edited(3, (m) => ((m[1]!['content'] as JsonObject[])[1]!['input'] = { path: 'other.txt' })),
      conversation(4),
    ]);
    for (const row of rows) expect(row.tree).toEqual(row.plain);
  });

  it('reports nothing when no block is marked, and counts marks for the 400', () => {
    expect(new PromptCacheLedger().account(conversation(2, { markSystem: false, lastMarked: false }))).toBeNull();
    const body = conversation(1);
    expect(cacheControlProblem(body)).toBeNull();
    (body['messages'] as JsonObject[])[0]!['content'] = ['a', 'b', 'c', 'd'].map((text) => ({ type: 'text', text, cache_control: mark }));
    expect(cacheControlProblem(body)).toBe('A maximum of 4 blocks with cache_control may be provided. Found 5.');
  });
});
