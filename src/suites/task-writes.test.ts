import { describe, expect, it } from 'vitest';
import { knownToolNames } from '../harness/tools/builtin.js';
import type { LoadedTask } from './load-suite.js';
import { TaskSpec } from './schema.js';
import { BOUNDED_TOOLS, RUNS_CODE, runWrites, unboundedWrites, WRITES_NOTHING } from './task-writes.js';

const task = (over: Partial<LoadedTask> = {}): LoadedTask => ({ id: 't1', prompt: 'p', expect: {}, suite: 's', file: '/s.yaml', tools: ['read', 'edit'], ...over });

describe('which tasks can write without bound', () => {
  it('takes a task whose tools are built-in file tools and that runs nothing of its own as bounded', () => {
    expect(unboundedWrites(task())).toBeNull();
    expect(unboundedWrites(task({ tools: ['read', 'write', 'edit', 'ls', 'glob', 'grep', 'sleep'], deferred_tools: ['grep'], mcp_servers: {} }))).toBeNull();
  });

  it('takes bash as unbounded, also when it is the default set or deferred', () => {
    expect(unboundedWrites(task({ tools: ['read', 'bash'] }))).toBe('the bash tool');
    expect(unboundedWrites(task({ tools: undefined }))).toBe('the bash tool');
    expect(unboundedWrites(task({ tools: undefined, deferred_tools: ['read'] }))).toBe('the bash tool');
  });

  it('takes a setup script, snapshot commands, hooks, defense modules and MCP servers as unbounded', () => {
    expect(unboundedWrites(task({ setup: 'npm install' }))).toBe('a setup script');
    expect(unboundedWrites(task({ system_snapshot: ['git_status'] as LoadedTask['system_snapshot'] }))).toBe('system_snapshot commands');
    expect(unboundedWrites(task({ hooks: './hooks.mjs' }))).toBe('a hooks module');
    expect(unboundedWrites(task({ defenses: ['./d.mjs'] }))).toBe('defense modules');
    expect(unboundedWrites(task({ mcp_servers: { fs: { command: 'node' } } as unknown as LoadedTask['mcp_servers'] }))).toBe('MCP servers');
  });

  it('takes a setting it does not know as unbounded', () => {
    expect(unboundedWrites({ ...task(), plugins: ['x'] } as LoadedTask)).toBe('the setting plugins');
  });

  it('sorts every task setting and every built-in tool (a new one must be sorted before it can run on the tmpfs)', () => {
    const sorted = new Set([...WRITES_NOTHING, ...Object.keys(RUNS_CODE)]);
    expect(Object.keys(TaskSpec.shape).filter((key) => !sorted.has(key))).toEqual([]);
    expect(knownToolNames().filter((name) => !BOUNDED_TOOLS.has(name))).toEqual(['bash']);
  });

  it('names the first unbounded task, and counts the largest task\'s fixture bytes and its script\'s strings at 3 bytes a unit', () => {
    const script = [{ tool_use: [{ name: 'write', input: { file_path: 'x', content: 'ab' } }] }] as LoadedTask['script'];
    const units = 'tool_use'.length + 'name'.length + 'write'.length + 'input'.length + 'file_path'.length + 'x'.length + 'content'.length + 'ab'.length;
    expect(runWrites([task({ files: { 'a.txt': 'héllo' }, script }), task({ id: 't2', files: { 'b.txt': 'x', 'c/d.txt': 'yy' } })])).toEqual({
      unbounded: null,
      largestTaskBytes: 6 + 3 * units,
    });
    expect(runWrites([task(), task({ id: 't2', tools: ['bash'] })]).unbounded).toBe('s/t2 has the bash tool');
  });
});
