import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinTools, createRegistry } from './builtin.js';
import { ToolRegistry, ToolRegistryError, type ValidationResult } from './registry.js';
import type { Tool } from './tool.js';

function fakeTool(name: string, extra: Partial<Tool> = {}): Tool {
  return {
    name,
    description: `The ${name} tool.`,
    inputSchema: z.strictObject({ q: z.string().describe('Query text.') }),
    readOnly: true,
    isConcurrencySafe: () => true,
    execute: async () => ({ content: 'ok' }),
    ...extra,
  };
}


/** The built-ins as first shipped, in their order: never reordered, only appended to. */
const PINNED_ORDER = ['read', 'write', 'edit', 'ls', 'glob', 'grep', 'bash'];

describe('ToolRegistry order', () => {
  it('keeps built-ins in declared order and sorts MCP tools by name after them, whatever the arrival order', () => {
    const a = new ToolRegistry([fakeTool('mcp__zeta__x'), fakeTool('read'), fakeTool('mcp__alpha__y'), fakeTool('bash')]);
    const b = new ToolRegistry([fakeTool('read'), fakeTool('mcp__alpha__y'), fakeTool('bash'), fakeTool('mcp__zeta__x')]);
    const expected = ['read', 'bash', 'mcp__alpha__y', 'mcp__zeta__x'];
    expect(a.names()).toEqual(expected);
    expect(b.names()).toEqual(expected);
    expect(a.definitions().map((d) => d.name)).toEqual(expected);
    expect(JSON.stringify(a.definitions())).toBe(JSON.stringify(b.definitions()));
  });

  it('sorts MCP names by code unit, not by locale', () => {
    const registry = new ToolRegistry([fakeTool('mcp__s__b'), fakeTool('mcp__s__B'), fakeTool('mcp__s__a')]);
    expect(registry.names()).toEqual(['mcp__s__B', 'mcp__s__a', 'mcp__s__b']);
  });

  it('leaves deferred tools out of definitions but still finds them', () => {
    const registry = new ToolRegistry([fakeTool('read'), fakeTool('mcp__s__rare')], { deferred: ['mcp__s__rare'] });
    expect(registry.definitions().map((d) => d.name)).toEqual(['read']);
    expect(registry.has('mcp__s__rare')).toBe(true);
    expect(registry.isDeferred('mcp__s__rare')).toBe(true);
    expect(registry.get('mcp__s__rare')?.name).toBe('mcp__s__rare');
  });

  it('refuses two tools with the same name', () => {
    expect(() => new ToolRegistry([fakeTool('read'), fakeTool('read')])).toThrow(ToolRegistryError);
  });
});

describe('ToolRegistry.definitions', () => {
  it('appends the usage guide to the description after a blank line', () => {
    const registry = new ToolRegistry([fakeTool('t', { usage: '- Do this.' }), fakeTool('plain')]);
    const [withUsage, plain] = registry.definitions();
    expect(withUsage?.description).toBe('The t tool.\n\n- Do this.');
    expect(plain?.description).toBe('The plain tool.');
  });

  it('sends the zod schema as JSON Schema without the $schema key', () => {
    const [def] = new ToolRegistry([fakeTool('t')]).definitions();
    expect(def?.input_schema).toEqual({
      type: 'object',
      properties: { q: { type: 'string', description: 'Query text.' } },
      required: ['q'],
      additionalProperties: false,
    });
  });

  it('leaves out the safe-integer bounds zod adds to .int() fields', () => {
    const read = createRegistry(['read']).definitions()[0];
    expect((read?.input_schema.properties as Record<string, unknown>).offset).toEqual({
      description: '1-based line number to start from. Omit to start at line 1.',
      type: 'integer',
      exclusiveMinimum: 0,
    });
  });

  it('builds each JSON Schema once and returns the same frozen object', () => {
    const registry = new ToolRegistry([fakeTool('t')]);
    const first = registry.definitions()[0]?.input_schema;
    expect(registry.definitions()[0]?.input_schema).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('carries every built-in usage guide and no $schema into the definitions', () => {
    const tools = builtinTools();
    const defs = createRegistry().definitions();
    // The order is part of the prompt-cache prefix: these keep their places, a new tool goes after them (builtin.ts).
    expect(defs.map((d) => d.name).slice(0, PINNED_ORDER.length)).toEqual(PINNED_ORDER);
    expect(defs.map((d) => d.name)).toEqual(tools.map((t) => t.name));
    for (const [i, def] of defs.entries()) {
      const tool = tools[i] as Tool;
      expect(tool.usage, tool.name).toBeTruthy();
      expect(def.description).toBe(`${tool.description}\n\n${tool.usage}`);
      expect(def.input_schema).not.toHaveProperty('$schema');
    }
  });

  it('gives every built-in field a description and keeps optional fields out of required', () => {
    for (const def of createRegistry().definitions()) {
      const properties = def.input_schema.properties as Record<string, { description?: string }>;
      for (const [field, schema] of Object.entries(properties)) expect(schema.description, `${def.name}.${field}`).toBeTruthy();
    }
    const edit = createRegistry(['edit']).definitions()[0];
    expect(edit?.input_schema.required).toEqual(['file_path', 'old_string', 'new_string']);
  });

  it('keeps built-in descriptions short and free of numbers that could change per run', () => {
    for (const tool of builtinTools()) {
      const sentences = tool.description.split(/(?<=\.)\s+/).filter(Boolean);
      expect(sentences.length, tool.name).toBeLessThanOrEqual(3);
      expect(tool.description, tool.name).not.toMatch(/\d{4}-\d{2}-\d{2}|\/tmp\//);
    }
  });
});

describe('ToolRegistry.validate', () => {
  const registry = createRegistry();
  /** The failure message; fails the test when validation passed. */
  const messageOf = (result: ValidationResult): string => {
    if (result.ok) throw new Error('expected a validation failure');
    return result.message;
  };

  it('returns the parsed value for valid input', () => {
    expect(registry.validate('read', { file_path: 'a.ts', limit: 10 })).toEqual({ ok: true, value: { file_path: 'a.ts', limit: 10 } });
  });

  it('names the field, the expected and received types, and what to send', () => {
    const result = registry.validate('read', { file_path: 123 });
    expect(result).toMatchObject({ ok: false, field: 'file_path' });
    expect(messageOf(result)).toMatch(/^file_path: expected string, received number — send file_path as a string\. Path of the file to read/);
  });

  it('reports a missing required field by name', () => {
    const result = registry.validate('edit', { file_path: 'a.ts', new_string: 'x' });
    expect(result).toMatchObject({ ok: false, field: 'old_string' });
    expect(messageOf(result)).toContain('old_string: missing required field — send old_string as a string.');
  });

  it('explains a non-integer and an out-of-range number', () => {
    const fraction = registry.validate('read', { file_path: 'a', offset: 1.5 });
    expect(messageOf(fraction)).toContain('offset: expected an integer, received 1.5');
    const big = registry.validate('bash', { command: 'ls', timeout_ms: 900_000 });
    expect(big).toMatchObject({ ok: false, field: 'timeout_ms' });
    expect(messageOf(big)).toContain('timeout_ms: must be at most 600000');
  });

  it('says an empty string must not be empty', () => {
    const result = registry.validate('edit', { file_path: 'a', old_string: '', new_string: 'x' });
    expect(messageOf(result)).toContain('old_string: must not be empty');
  });

  it('names unknown fields and lists the real ones', () => {
    const result = registry.validate('read', { file_path: 'a', filePath: 'a' });
    expect(result).toMatchObject({ ok: false, field: 'filePath' });
    expect(messageOf(result)).toContain('"filePath": unknown field — the fields are file_path, offset, limit');
  });

  it('asks for an object when the arguments are not one', () => {
    const result = registry.validate('read', 'a.ts');
    expect(result).toMatchObject({ ok: false, field: 'input' });
    expect(messageOf(result)).toContain('expected an object, received string');
  });

  it('lists one line per problem', () => {
    const result = registry.validate('edit', { file_path: 1, old_string: 2, new_string: 3 });
    expect(messageOf(result).split('\n')).toHaveLength(3);
  });

  it('throws for a tool that is not registered (lookup must answer first)', () => {
    expect(() => registry.validate('nope', {})).toThrow(ToolRegistryError);
  });
});

describe('createRegistry', () => {
  it('keeps the declared order whatever order the names come in', () => {
    expect(createRegistry(['bash', 'read', 'grep']).names()).toEqual(['read', 'grep', 'bash']);
  });

  it('throws on an unknown built-in name', () => {
    expect(() => createRegistry(['read', 'cat'])).toThrow(/Unknown tool: cat/);
  });
});
