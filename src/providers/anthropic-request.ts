/**
 * The Anthropic request body of one model, built from parts it remembers.
 * A session sends its history again on every turn and measures it before
 * sending (`describeRequest`, more than once per turn: the context budget,
 * the trace), so translating and serializing every message every time made
 * the adapter cost grow with the conversation. Here each history block is
 * translated and measured once; a request is assembled from those parts and
 * its size summed from theirs (wire-bytes.ts), equal byte for byte to
 * serializing the body that is sent (anthropic-request.test.ts proves it
 * against toAnthropicParams, the reference translation).
 *
 * A remembered part is reused only while it is still the translation of the
 * block it came from: the block is the same object and its fields are still
 * the ones translated (a block edited in place is translated again). Tools
 * are remembered per definitions array while its entries and their frozen
 * schemas are unchanged (a schema that is not frozen is translated each time,
 * as the dialect layer does). Blocks are remembered by the model object
 * (one session's), tool arrays weakly by the session's own arrays, tool sizes
 * per frozen dialect schema: no entry is reused unless it is still exact.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { toolSchemaFor, type DialectOptions } from './dialects/index.js';
import { EPHEMERAL, withCacheBreakpoints } from './anthropic-cache.js';
import type { AnthropicParams } from './anthropic-mapping.js';
import { addedKeyBytes, arrayBytes, jsonBytes } from './wire-bytes.js';
import type { AssistantBlock, Message, ModelRequest, ToolDefinition, UserBlock } from './types.js';

type WireBlock = Anthropic.TextBlockParam | Anthropic.ToolUseBlockParam | Anthropic.ToolResultBlockParam;
type Block = UserBlock | AssistantBlock;

interface Part {
  wire: WireBlock;
  bytes: number;
}

interface ToolsPart {
  /** The entries and schemas translated, to tell an array edited in place. */
  entries: readonly ToolDefinition[];
  schemas: readonly unknown[];
  stricts: readonly (false | undefined)[];
  wire: Anthropic.Tool[];
  bytes: number;
}

interface Head {
  tools: ToolsPart | null;
  system: string | undefined;
  maxTokens: number;
  /** `{"model":..,"max_tokens":..,"messages":[],..system and tools as sent}` */
  bytes: number;
}

/** `,"cache_control":{"type":"ephemeral"}`: the conversation breakpoint added to the last block. */
const BREAKPOINT_BYTES = addedKeyBytes('cache_control', EPHEMERAL);
/** `,"stream":true`, added last when the call streams. */
const STREAM_BYTES = addedKeyBytes('stream', true);
/** `{"role":"user","content":[]}` and the assistant's, without the blocks. */
const MESSAGE_BYTES = { user: jsonBytes({ role: 'user', content: [] }) - 2, assistant: jsonBytes({ role: 'assistant', content: [] }) - 2 };

function translate(block: Block): WireBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result':
      return { type: 'tool_result', tool_use_id: block.tool_use_id, content: block.content, is_error: block.is_error };
  }
}

/** Whether `wire` is still what `block` translates to (same type and the same field values). */
function current(block: Block, wire: WireBlock): boolean {
  if (block.type !== wire.type) return false;
  switch (block.type) {
    case 'text':
      return (wire as Anthropic.TextBlockParam).text === block.text;
    case 'tool_use': {
      const w = wire as Anthropic.ToolUseBlockParam;
      return w.id === block.id && w.name === block.name && w.input === block.input;
    }
    case 'tool_result': {
      const w = wire as Anthropic.ToolResultBlockParam;
      return w.tool_use_id === block.tool_use_id && w.content === block.content && w.is_error === block.is_error;
    }
  }
}

/**
 * Translated blocks, by position in the conversation: a session sends the
 * same blocks in the same order on every turn and only appends, so the
 * block at position k is almost always the one seen there before. Checked
 * by identity and fields (`current`), so compaction, edits and insertions
 * only cost a fresh translation where they changed something. Array slots
 * instead of a map keyed by block: no hashing per block per request.
 */
class PartMemo {
  private readonly blocks: Block[] = [];
  private readonly parts: Part[] = [];

  at(k: number, block: Block): Part {
    const part = this.parts[k];
    if (part !== undefined && this.blocks[k] === block && current(block, part.wire)) return part;
    const wire = translate(block);
    const fresh = { wire, bytes: jsonBytes(wire) };
    if (k <= this.parts.length) {
      this.blocks[k] = block;
      this.parts[k] = fresh;
    }
    return fresh;
  }
}

/** Translated definitions arrays, per strictness (the only option they depend on); keyed weakly by the session's own arrays. */
const toolParts = new WeakMap<readonly ToolDefinition[], { strict?: ToolsPart; plain?: ToolsPart }>();
/**
 * The last few parts translated, per strictness: a suite's sessions each have their own array of the same shared
 * definitions, and each translated them again on its first call. A part is taken for another array only when
 * `unchanged` holds (the same definition objects, schemas and flags, in order), and is never changed in place.
 */
const recentParts: { strict: ToolsPart[]; plain: ToolsPart[] } = { strict: [], plain: [] };
const RECENT_PARTS = 4;

export class AnthropicRequestBuilder {
  /** The last head measured. */
  private head: Head | null = null;
  private readonly memo = new PartMemo();

  constructor(
    private readonly model: string,
    private readonly dialect: DialectOptions,
    private readonly promptCache: boolean,
  ) {}

  /** The body complete() sends (without `stream`): equal to toAnthropicParams(model, request, dialect, promptCache). */
  params(request: ModelRequest): AnthropicParams {
    const params: AnthropicParams = {
      model: this.model,
      max_tokens: request.maxTokens,
      messages: [],
    };
    let k = 0;
    for (const m of request.messages) {
      const content: WireBlock[] = [];
      for (const block of m.content as Block[]) content.push(this.memo.at(k++, block).wire);
      params.messages.push({ role: m.role, content } as Anthropic.MessageParam);
    }
    if (request.system !== undefined && request.system !== '') params.system = request.system;
    // A fresh array: the breakpoint step may replace its last entry, and the remembered one must stay as translated.
    if (request.tools.length > 0) params.tools = [...this.wireTools(request.tools).wire];
    return this.promptCache ? withCacheBreakpoints(params) : params;
  }

  /** Sizes of the body as sent (`stream`: with `"stream":true`) and of its tool definitions without breakpoints. */
  sizes(request: ModelRequest, stream: boolean): { requestBytes: number; toolsBytes: number } {
    const tools = request.tools.length > 0 ? this.wireTools(request.tools) : null;
    let bytes = this.headBytes(request, tools);
    let blocks = 0;
    let k = 0;
    for (const message of request.messages) {
      let sum = 0;
      for (const block of message.content as Block[]) sum += this.memo.at(k++, block).bytes;
      bytes += MESSAGE_BYTES[message.role] + arrayBytes(sum, message.content.length);
      blocks = message.content.length;
    }
    const count = request.messages.length;
    bytes += Math.max(0, count - 1);
    // The conversation breakpoint (anthropic-cache.ts) goes on the last block of the last message, when there is one.
    if (this.promptCache && count > 0 && blocks > 0) bytes += BREAKPOINT_BYTES;
    return { requestBytes: bytes + (stream ? STREAM_BYTES : 0), toolsBytes: tools?.bytes ?? 0 };
  }


  private wireTools(tools: readonly ToolDefinition[]): ToolsPart {
    const slot = this.dialect.strict === true ? 'strict' : 'plain';
    let byDialect = toolParts.get(tools);
    const known = byDialect?.[slot];
    if (known !== undefined && unchanged(known, tools)) return known;
    // Another session's array of the same definitions (each session has its own array of the shared ones).
    const shared = recentParts[slot].find((part) => unchanged(part, tools));
    const part = shared ?? this.translateTools(tools);
    // Only definitions whose schemas cannot change are remembered (the dialect layer caches on the same condition).
    const lasting = shared !== undefined || tools.every((t) => Object.isFrozen(t.input_schema));
    if (byDialect === undefined) toolParts.set(tools, (byDialect = {}));
    byDialect[slot] = lasting ? part : undefined;
    if (lasting && shared === undefined) {
      if (recentParts[slot].length >= RECENT_PARTS) recentParts[slot].shift();
      recentParts[slot].push(part);
    }
    return part;
  }

  private translateTools(tools: readonly ToolDefinition[]): ToolsPart {
    const wire = tools.map((tool) => this.wireTool(tool));
    let sum = 0;
    for (const tool of wire) sum += toolBytes(tool);
    return { entries: [...tools], schemas: tools.map((t) => t.input_schema), stricts: tools.map((t) => t.strict), wire, bytes: arrayBytes(sum, wire.length) };
  }

  private wireTool(tool: ToolDefinition): Anthropic.Tool {
    // The JSON Schema comes from the tool's zod schema through the Anthropic dialect; the SDK type wants its own input_schema shape.
    const dialect = tool.strict === false ? { ...this.dialect, strict: false } : this.dialect;
    const input_schema = toolSchemaFor('anthropic', tool.input_schema, dialect) as Anthropic.Tool.InputSchema;
    return { name: tool.name, description: tool.description, input_schema, ...(dialect.strict ? { strict: true } : {}) };
  }

  /** Size of everything but the messages: model, max_tokens, an empty messages array, system and tools with their breakpoint. */
  private headBytes(request: ModelRequest, tools: ToolsPart | null): number {
    const system = request.system !== undefined && request.system !== '' ? request.system : undefined;
    const head = this.head;
    if (head !== null && head.tools === tools && head.system === system && head.maxTokens === request.maxTokens) return head.bytes;
    // The keys in the order toAnthropicParams sets them; the breakpoint as withCacheBreakpoints places it.
    let bytes = jsonBytes({ model: this.model, max_tokens: request.maxTokens, messages: [] });
    if (system !== undefined) bytes += addedKeyBytes('system', this.promptCache ? [{ type: 'text', text: system, cache_control: EPHEMERAL }] : system);
    if (tools !== null) bytes += addedKeyBytes('tools', []) - 2 + tools.bytes + (this.promptCache && system === undefined ? BREAKPOINT_BYTES : 0);
    this.head = { tools, system, maxTokens: request.maxTokens, bytes };
    return bytes;
  }
}

/**
 * Sizes of wire tools, per frozen dialect schema and name. toolSchemaFor
 * hands out deep-frozen results shared by every model, and a wire tool is
 * only its name, description, that schema and the strict flag; so a size
 * measured once holds for every session that sends the same tool, as long
 * as the description (compared whole) and the flag match.
 */
const toolSizes = new WeakMap<object, Map<string, { description: string; strict: boolean; bytes: number }>>();

function toolBytes(tool: Anthropic.Tool): number {
  const schema = tool.input_schema;
  if (!Object.isFrozen(schema)) return jsonBytes(tool);
  const strict = tool.strict === true;
  let byName = toolSizes.get(schema);
  if (byName === undefined) toolSizes.set(schema, (byName = new Map()));
  const known = byName.get(tool.name);
  if (known !== undefined && known.description === tool.description && known.strict === strict) return known.bytes;
  const bytes = jsonBytes(tool);
  byName.set(tool.name, { description: tool.description ?? '', strict, bytes });
  return bytes;
}

function unchanged(known: ToolsPart, tools: readonly ToolDefinition[]): boolean {
  if (known.entries.length !== tools.length) return false;
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i]!;
    const wire = known.wire[i]!;
    if (tool !== known.entries[i] || tool.input_schema !== known.schemas[i] || tool.strict !== known.stricts[i] || tool.name !== wire.name || tool.description !== wire.description) return false;
  }
  return true;
}
