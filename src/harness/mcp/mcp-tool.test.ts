import { describe, expect, it } from 'vitest';
import { toolsPayload } from '../../providers/dialects/payload.js';
import { readTool } from '../tools/read.js';
import { ToolRegistry } from '../tools/registry.js';
import { defaultServerSpec, MAX_DESCRIPTION_CHARS } from './config.js';
import { capDescription, createMcpTool, type McpCallTarget } from './mcp-tool.js';
import type { RemoteTool } from './remote-tool.js';

const spec = (trust: 'trusted' | 'ask' = 'ask') => ({ ...defaultServerSpec('srv', { kind: 'stdio', command: 'x', args: [], env: {} }), trust });
const remote = (over: Partial<RemoteTool> = {}): RemoteTool => ({
  name: 'lookup',
  description: 'Looks a record up.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], $schema: 'http://json-schema.org/draft-07/schema#' },
  readOnlyHint: true,
  ...over,
});
const target = (answer: Awaited<ReturnType<McpCallTarget['call']>>): McpCallTarget & { calls: unknown[] } => {
  const calls: unknown[] = [];
  return { calls, call: async (tool, args, options) => (calls.push({ tool, args, label: options.label }), answer) };
};

describe('an MCP tool as a harness tool', () => {
  it('caps a long description at 2048 characters with a marker, and leaves a short one alone', () => {
    expect(capDescription('short')).toBe('short');
    const capped = capDescription('d'.repeat(10_000));
    expect(capped).toHaveLength(MAX_DESCRIPTION_CHARS);
    expect(capped.endsWith('[description cut at 2048 characters]')).toBe(true);
  });

  it('sends the server schema without $schema and validates input against it', () => {
    const tool = createMcpTool('mcp__srv__lookup', remote(), spec(), target({ content: [] }));
    const registry = new ToolRegistry([tool]);
    expect(registry.jsonSchema('mcp__srv__lookup')).toEqual({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });
    expect(registry.validate('mcp__srv__lookup', { id: '7' }).ok).toBe(true);
    expect(registry.validate('mcp__srv__lookup', { id: 7 }).ok).toBe(false);
  });

  it('is never sent strict, on either wire, while the built-ins beside it are', () => {
    const registry = new ToolRegistry([readTool, createMcpTool('mcp__srv__lookup', remote(), spec(), target({ content: [] }))]);
    for (const family of ['openai', 'anthropic'] as const) {
      const wire = JSON.stringify(toolsPayload(family, registry.definitions(), { strict: true }).tools);
      const [builtin, mcp] = JSON.parse(wire) as Record<string, unknown>[];
      expect(JSON.stringify(builtin)).toContain('"strict":true');
      expect(JSON.stringify(mcp)).not.toContain('"strict"');
      expect(JSON.stringify(mcp)).not.toContain('additionalProperties');
    }
  });

  it('validates only "an object" when zod cannot read the schema, leaving the rest to the server', () => {
    const tool = createMcpTool('mcp__srv__odd', remote({ inputSchema: { type: 'object', properties: { a: { $ref: '#/nowhere' } } } }), spec(), target({ content: [] }));
    expect(tool.inputSchema.safeParse({ a: 1 }).success).toBe(true);
  });

  it('is never read-only, runs beside others only on a trusted server that says it is read-only, and is limited in tokens', () => {
    const untrusted = createMcpTool('mcp__srv__lookup', remote(), spec('ask'), target({ content: [] }));
    const trusted = createMcpTool('mcp__srv__lookup', remote(), spec('trusted'), target({ content: [] }));
    const writer = createMcpTool('mcp__srv__lookup', remote({ readOnlyHint: false }), spec('trusted'), target({ content: [] }));
    expect([untrusted.readOnly, trusted.readOnly]).toEqual([false, false]);
    expect([untrusted.isConcurrencySafe({}), trusted.isConcurrencySafe({}), writer.isConcurrencySafe({})]).toEqual([false, true, false]);
    expect(trusted.maxResultTokens).toBe(25_000);
    expect(trusted.maxResultChars).toBe(Infinity);
    expect(trusted.timeoutMs).toBe(120_000);
  });

  it('calls the server by its own name and turns isError into a tool_error output', async () => {
    const failing = target({ content: [{ type: 'text', text: 'quota exceeded' }], isError: true });
    const tool = createMcpTool('mcp__srv__lookup', remote(), spec(), failing);
    const out = await tool.execute({ id: '1' }, { workspace: '/tmp', signal: new AbortController().signal });
    expect(out).toEqual({ content: 'quota exceeded', isError: true, errorCode: 'is_error' });
    expect(failing.calls).toEqual([{ tool: 'lookup', args: { id: '1' }, label: 'mcp__srv__lookup' }]);
  });
});
