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
 * as the dialect layer does). The memory belongs to one model object and is
 * keyed weakly by the session's own blocks: nothing outlives the messages.
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
  /** The last head measured with these tools. */
  head: Head | null;
}

interface Head {
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

export class AnthropicRequestBuilder {
  private readonly parts = new WeakMap<Block, Part>();
  /** Per definitions array: the loop sends one array per tool set (and measures the unloaded deferred ones apart). */
  private readonly tools = new WeakMap<readonly ToolDefinition[], ToolsPart>();
  /** The last head measured without tools. */
  private bareHead: Head | null = null;

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
      messages: request.messages.map((m) => ({ role: m.role, content: (m.content as Block[]).map((b) => this.part(b).wire) }) as Anthropic.MessageParam),
    };
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
    for (const message of request.messages) {
      let sum = 0;
      for (const block of message.content as Block[]) sum += this.part(block).bytes;
      bytes += MESSAGE_BYTES[message.role] + arrayBytes(sum, message.content.length);
      blocks = message.content.length;
    }
    const count = request.messages.length;
    bytes += Math.max(0, count - 1);
    // The conversation breakpoint (anthropic-cache.ts) goes on the last block of the last message, when there is one.
    if (this.promptCache && count > 0 && blocks > 0) bytes += BREAKPOINT_BYTES;
    return { requestBytes: bytes + (stream ? STREAM_BYTES : 0), toolsBytes: tools?.bytes ?? 0 };
  }

  private part(block: Block): Part {
    let part = this.parts.get(block);
    if (part === undefined || !current(block, part.wire)) {
      const wire = translate(block);
      this.parts.set(block, (part = { wire, bytes: jsonBytes(wire) }));
    }
    return part;
  }

  private wireTools(tools: readonly ToolDefinition[]): ToolsPart {
    const known = this.tools.get(tools);
    if (known !== undefined && unchanged(known, tools)) return known;
    const wire = tools.map((tool) => this.wireTool(tool));
    let sum = 0;
    for (const tool of wire) sum += toolBytes(tool);
    const part: ToolsPart = { entries: [...tools], schemas: tools.map((t) => t.input_schema), stricts: tools.map((t) => t.strict), wire, bytes: arrayBytes(sum, wire.length), head: null };
    // Only definitions whose schemas cannot change are remembered (the dialect layer caches on the same condition).
    if (tools.every((t) => Object.isFrozen(t.input_schema))) this.tools.set(tools, part);
    else this.tools.delete(tools);
    return part;
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
    const head = tools === null ? this.bareHead : tools.head;
    if (head !== null && head.system === system && head.maxTokens === request.maxTokens) return head.bytes;
    // The keys in the order toAnthropicParams sets them; the breakpoint as withCacheBreakpoints places it.
    let bytes = jsonBytes({ model: this.model, max_tokens: request.maxTokens, messages: [] });
    if (system !== undefined) bytes += addedKeyBytes('system', this.promptCache ? [{ type: 'text', text: system, cache_control: EPHEMERAL }] : system);
    if (tools !== null) bytes += addedKeyBytes('tools', []) - 2 + tools.bytes + (this.promptCache && system === undefined ? BREAKPOINT_BYTES : 0);
    const measured: Head = { system, maxTokens: request.maxTokens, bytes };
    if (tools === null) this.bareHead = measured;
    else tools.head = measured;
    return measured.bytes;
  }
}

/**
 * Sizes of frozen dialect schemas. toolSchemaFor hands out deep-frozen
 * results shared by every model, so the size of one is a fact about a value
 * that cannot change, measured once per process instead of once per session.
 */
const schemaSizes = new WeakMap<object, number>();

function schemaBytes(schema: object): number {
  if (!Object.isFrozen(schema)) return jsonBytes(schema);
  let bytes = schemaSizes.get(schema);
  if (bytes === undefined) schemaSizes.set(schema, (bytes = jsonBytes(schema)));
  return bytes;
}

/** One wire tool's size: the tool with an empty schema (`{}`, 2 bytes), and the schema in its place. */
function toolBytes(tool: Anthropic.Tool): number {
  return jsonBytes({ ...tool, input_schema: {} }) - 2 + schemaBytes(tool.input_schema);
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
