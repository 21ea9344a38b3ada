import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { prefixCollisions } from './prefix-collisions.js';
import { createRegistry } from './builtin.js';
import { createToolSearchTool, nameWords, scoreTools } from './tool-search.js';
import type { Tool } from './tool.js';

const tool = (name: string, description: string): Tool => ({
  name,
  description,
  inputSchema: z.object({}),
  readOnly: true,
  isConcurrencySafe: () => true,
  execute: async () => ({ content: '' }),
});

describe('tool_search scoring', () => {
  it('splits names into words across mcp__, snake_case and camelCase', () => {
    expect(nameWords('mcp__github__create_issue')).toEqual(['mcp', 'github', 'create', 'issue']);
    expect(nameWords('cronCreate')).toEqual(['cron', 'create']);
  });

  it('matches on word boundaries, so "read" does not hit "already" or "thread"', () => {
    const tools = [tool('notes', 'Lists notes that were already saved in a thread.'), tool('file_read', 'Reads a file.')];
    expect(scoreTools('read', tools).map((s) => s.name)).toEqual(['file_read']);
  });

  it('ranks a name match above a description match and honours +required terms', () => {
    const tools = [tool('cron_create', 'Schedule a job.'), tool('notify', 'Sends a message on a cron schedule.')];
    expect(scoreTools('cron', tools).map((s) => s.name)).toEqual(['cron_create', 'notify']);
    expect(scoreTools('cron +message', tools).map((s) => s.name)).toEqual(['notify']);
  });

  it('loads exactly the selected tools and says when a name is unknown or already loaded', async () => {
    const registry = createRegistry(['read', 'sleep', 'explode'], { deferred: ['sleep', 'explode'] });
    const search = createToolSearchTool(registry);
    const signal = new AbortController().signal;
    const out = await search.execute({ query: 'select:sleep,read,nope' }, { workspace: '/tmp', signal });
    expect(out.content).toMatch(/Loaded 1 tool/);
    expect(out.content).toMatch(/read is already loaded/);
    expect(out.content).toMatch(/no tool named "nope"/);
    expect(registry.definitions().map((d) => d.name)).toEqual(['read', 'sleep']);
    expect(registry.isUnloaded('explode')).toBe(true);
  });
});

describe('prefix collisions between resident and deferred names', () => {
  it('reports pairs sharing 4+ leading characters (the seed\'s enter_plan_mode / enter_worktree)', () => {
    expect(prefixCollisions(['enter_plan_mode', 'read'], ['enter_worktree', 'cron_create'])).toEqual([
      { resident: 'enter_plan_mode', deferred: 'enter_worktree', prefix: 'enter_' },
    ]);
    expect(prefixCollisions(['read_file'], ['reap'])).toEqual([]);
  });
});

describe('tool_search definition', () => {
  it('marks the session\'s deferred tools in its usage text, fixed at creation so activation never rewrites the prefix', async () => {
    const registry = createRegistry(['read', 'sleep', 'explode'], { deferred: ['sleep', 'explode'] });
    const search = createToolSearchTool(registry);
    registry.register(search);
    const before = JSON.stringify(registry.definitions().find((d) => d.name === 'tool_search'));
    expect(before).toContain('not callable until loaded): explode, sleep');
    await search.execute({ query: 'select:sleep' }, { workspace: '/tmp', signal: new AbortController().signal });
    expect(JSON.stringify(registry.definitions().find((d) => d.name === 'tool_search'))).toBe(before);
  });
});
