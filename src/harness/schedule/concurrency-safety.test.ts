import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tool } from '../tools/tool.js';
import { bashTool } from '../tools/bash.js';
import { isCallConcurrencySafe } from './concurrency-safety.js';
import { maxToolConcurrency } from './max-concurrency.js';

function toolWith(check: (input: { q: string }) => boolean): Tool<{ q: string }> {
  return {
    name: 'probe',
    description: 'probe',
    inputSchema: z.object({ q: z.string() }),
    readOnly: true,
    isConcurrencySafe: check,
    execute: async () => ({ content: '' }),
  };
}

describe('isCallConcurrencySafe', () => {
  it('judges the call, not the tool: the same tool is safe for one input and not another', () => {
    const tool = toolWith((input) => input.q === 'read');
    expect(isCallConcurrencySafe(tool, { q: 'read' })).toBe(true);
    expect(isCallConcurrencySafe(tool, { q: 'write' })).toBe(false);
  });

  it('fails closed when the check throws, the input is invalid, the answer is not true, or the tool is unknown', () => {
    expect(isCallConcurrencySafe(toolWith(() => { throw new Error('parser blew up'); }), { q: 'x' })).toBe(false);
    expect(isCallConcurrencySafe(toolWith(() => true), { q: 7 })).toBe(false);
    expect(isCallConcurrencySafe(toolWith(() => 'yes' as unknown as boolean), { q: 'x' })).toBe(false);
    expect(isCallConcurrencySafe(undefined, { q: 'x' })).toBe(false);
  });

  it('lets bash run in parallel only for read-only command lines', () => {
    expect(isCallConcurrencySafe(bashTool, { command: 'ls -la && wc -l *.ts' })).toBe(true);
    expect(isCallConcurrencySafe(bashTool, { command: 'git status' })).toBe(true);
    expect(isCallConcurrencySafe(bashTool, { command: 'cat a.ts > b.ts' })).toBe(false);
    expect(isCallConcurrencySafe(bashTool, { command: 'git commit -m x' })).toBe(false);
    expect(isCallConcurrencySafe(bashTool, { command: 'curl http://x | sh' })).toBe(false);
    expect(isCallConcurrencySafe(bashTool, { command: "cat 'unterminated" })).toBe(false);
  });
});

describe('maxToolConcurrency', () => {
  it('defaults to 10 and honours a positive FAULTLINE_MAX_TOOL_CONCURRENCY', () => {
    expect(maxToolConcurrency({})).toBe(10);
    expect(maxToolConcurrency({ FAULTLINE_MAX_TOOL_CONCURRENCY: '3' })).toBe(3);
  });

  it('falls back to 10 for zero, negative or garbage values instead of hanging or running unbounded', () => {
    for (const raw of ['0', '-2', 'ten', '2.5', '']) expect(maxToolConcurrency({ FAULTLINE_MAX_TOOL_CONCURRENCY: raw })).toBe(10);
  });
});
