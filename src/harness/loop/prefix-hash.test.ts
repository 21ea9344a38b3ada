import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRegistry } from '../tools/builtin.js';
import type { Tool } from '../tools/tool.js';
import { ToolRegistry } from '../tools/registry.js';
import { readTool } from '../tools/read.js';
import { prefixHash } from './prefix-hash.js';

const byContent = (system: string, tools: unknown) =>
  createHash('sha256').update(system).update('\u0000').update(JSON.stringify(tools)).digest('hex').slice(0, 16);

describe('the prefix hash, remembered for the shared definitions', () => {
  it('is the hash of the system text and the definitions, for every registry of the same tools', () => {
    const first = createRegistry(['read', 'edit']).definitions();
    const second = createRegistry(['read', 'edit']).definitions();
    expect(second[0]).toBe(first[0]);
    expect(prefixHash('sys', first)).toBe(byContent('sys', first));
    expect(prefixHash('sys', second)).toBe(byContent('sys', second));
    expect(prefixHash('other', second)).toBe(byContent('other', second));
    expect(prefixHash(undefined, second)).toBe(byContent('', second));
    expect(prefixHash('sys', second.slice(0, 1))).toBe(byContent('sys', second.slice(0, 1)));
  });

  it('shares definitions no session can change', () => {
    const [read] = createRegistry(['read']).definitions();
    expect(() => ((read as { description: string }).description = 'changed')).toThrow(TypeError);
    expect(() => ((read!.input_schema as { type: string }).type = 'changed')).toThrow(TypeError);
  });

  it('follows a tool whose description changed, and hashes a definition built elsewhere by its content', () => {
    const tool: Tool = { ...readTool, name: 'read_copy' };
    const before = new ToolRegistry([tool]).definitions();
    const hashBefore = prefixHash('sys', before);
    (tool as { description: string }).description = 'Reads a file (new words).';
    const after = new ToolRegistry([tool]).definitions();
    expect(after[0]!.description).toContain('new words');
    expect(prefixHash('sys', after)).toBe(byContent('sys', after));
    expect(prefixHash('sys', after)).not.toBe(hashBefore);
    const handMade = [{ ...after[0]!, description: 'hand made' }];
    expect(prefixHash('sys', handMade)).toBe(byContent('sys', handMade));
    handMade[0]!.description = 'changed again';
    expect(prefixHash('sys', handMade)).toBe(byContent('sys', handMade));
  });
});
