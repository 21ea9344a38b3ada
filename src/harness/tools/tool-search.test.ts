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

  it('says which MCP servers are still connecting instead of only "no match", and answers a select of their tools with the reason', async () => {
    const registry = createRegistry(['read', 'sleep'], { deferred: ['sleep'] });
    registry.setAvailability((name) => (name.startsWith('mcp__slow__') ? { code: 'mcp_server_connecting', message: 'The MCP server "slow" is still connecting — retry shortly.' } : null));
    let pending = ['slow'];
    const search = createToolSearchTool(registry, { mcpServers: ['slow'], pendingServers: () => pending });
    const signal = new AbortController().signal;
    const keyword = await search.execute({ query: 'slow echo' }, { workspace: '/tmp', signal });
    expect(keyword.content).toMatch(/No deferred tool matches "slow echo"/);
    expect(keyword.content).toMatch(/MCP server slow is still connecting — its tools cannot be found yet; retry shortly\./);
    const select = await search.execute({ query: 'select:mcp__slow__echo' }, { workspace: '/tmp', signal });
    expect(select.content).toBe('The MCP server "slow" is still connecting — retry shortly.');
    pending = [];
    expect((await search.execute({ query: 'slow echo' }, { workspace: '/tmp', signal })).content).not.toMatch(/connecting/);
  });

  it('names the MCP servers in its fixed description but never MCP tools, whose arrival depends on timing', () => {
    const registry = createRegistry(['read', 'sleep'], { deferred: ['sleep'] });
    registry.register({ ...tool('mcp__fast__echo', 'Echo.'), name: 'mcp__fast__echo' }, { deferred: true });
    const search = createToolSearchTool(registry, { mcpServers: ['fast', 'slow'] });
    expect(search.usage).toMatch(/Deferred tools in this session \(not callable until loaded\): sleep\./);
    expect(search.usage).toMatch(/MCP servers in this session: fast, slow\./);
    expect(search.usage).not.toMatch(/mcp__fast__echo/);
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
  it('reports pairs sharing 4+ leading characters (enter_plan_mode / enter_worktree, docs/harness-rules.md#prefix-collapse)', () => {
    expect(prefixCollisions(['enter_plan_mode', 'read'], ['enter_worktree', 'cron_create'])).toEqual([
      { resident: 'enter_plan_mode', deferred: 'enter_worktree', prefix: 'enter_', after: '' },
    ]);
    expect(prefixCollisions(['read_file'], ['reap'])).toEqual([]);
  });

  it('compares MCP names after mcp__ (and after the server when both are on one), as the model chooses between them', () => {
    const resident = ['read', 'mcp__gh__get_issue', 'mcp__gh__create_pr', 'mcp__files__read'];
    const deferred = ['mcp__gh__get_pull', 'mcp__gh__list_labels', 'mcp__gitlab__list', 'mcp__filesystem__read'];
    expect(prefixCollisions(resident, deferred)).toEqual([
      { resident: 'mcp__gh__get_issue', deferred: 'mcp__gh__get_pull', prefix: 'get_', after: 'mcp__gh__' },
      { resident: 'mcp__files__read', deferred: 'mcp__filesystem__read', prefix: 'files', after: 'mcp__' },
    ]);
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

describe('tool_search scoring: searchHint and parameters', () => {
  const withParams = (name: string, description: string, shape: z.ZodRawShape, searchHint?: string): Tool => ({
    ...tool(name, description),
    inputSchema: z.object(shape),
    ...(searchHint !== undefined ? { searchHint } : {}),
  });

  it('ranks a searchHint match above a description match', () => {
    const tools = [withParams('alpha', 'Sends a calendar invite.', {}), withParams('beta', 'Manages events.', {}, 'calendar invite meeting')];
    expect(scoreTools('calendar', tools).map((s) => s.name)).toEqual(['beta', 'alpha']);
    // Without the hint the description match alone wins.
    expect(scoreTools('calendar', [tools[0]!, withParams('beta', 'Manages events.', {})]).map((s) => s.name)).toEqual(['alpha']);
  });

  it('finds a tool by a parameter name or a parameter description, below any description match', () => {
    const tools = [
      withParams('deploy', 'Ships the build.', { region: z.string(), dry_run: z.boolean().describe('Validate without applying.') }),
      withParams('regions', 'Lists each region.', {}),
    ];
    expect(scoreTools('region', tools).map((s) => s.name)).toEqual(['regions', 'deploy']);
    expect(scoreTools('dry', tools).map((s) => s.name)).toEqual(['deploy']);
    expect(scoreTools('validate', tools).map((s) => s.name)).toEqual(['deploy']);
  });
});
