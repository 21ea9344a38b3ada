import { describe, expect, it } from 'vitest';
import { assignToolNames, normalizeMcpName, serverNameProblem, serverOf, TOOL_NAME_PATTERN } from './names.js';

describe('MCP tool names', () => {
  it('builds mcp__server__tool with every character outside [a-zA-Z0-9_-] replaced', () => {
    expect(normalizeMcpName('get sum!')).toBe('get_sum_');
    expect(normalizeMcpName('')).toBe('_');
    expect(assignToolNames('gh', ['create issue', 'get-sum']).get('create issue')).toBe('mcp__gh__create_issue');
  });

  it('gives colliding names deterministically whatever order the server lists them in', () => {
    const a = assignToolNames('s', ['get.sum', 'get_sum', 'get sum']);
    const b = assignToolNames('s', ['get sum', 'get_sum', 'get.sum']);
    expect([...a.entries()].sort()).toEqual([...b.entries()].sort());
    // Code-unit order of the originals: "get sum" < "get.sum" < "get_sum"; the first keeps the plain name.
    expect(a.get('get sum')).toBe('mcp__s__get_sum');
    expect(a.get('get.sum')).toMatch(/^mcp__s__get_sum_[0-9a-f]{8}$/);
    expect(a.get('get_sum')).toMatch(/^mcp__s__get_sum_[0-9a-f]{8}$/);
    expect(new Set(a.values()).size).toBe(3);
  });

  it('cuts a name over 64 characters and keeps it unique with a hash of the original', () => {
    const long = 'x'.repeat(80);
    const names = assignToolNames('server', [long, `${long}y`]);
    for (const name of names.values()) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(new Set(names.values()).size).toBe(2);
    expect(assignToolNames('server', [long]).get(long)).toBe(names.get(long));
  });

  it('never takes over a name already given in the session, even from a tool that sorts first', () => {
    const first = assignToolNames('s', ['get_sum']);
    const later = assignToolNames('s', ['get.sum', 'get_sum'], first);
    expect(later.get('get_sum')).toBe('mcp__s__get_sum');
    expect(later.get('get.sum')).toMatch(/^mcp__s__get_sum_[0-9a-f]{8}$/);
  });

  it('refuses server names that are not valid or contain the separator', () => {
    expect(serverNameProblem('github')).toBeNull();
    expect(serverNameProblem('my server')).toMatch(/letters, digits/);
    expect(serverNameProblem('a__b')).toMatch(/"__"/);
    expect(serverNameProblem('x'.repeat(33))).toMatch(/1-32/);
  });

  it('reads the server back from a registered name', () => {
    expect(serverOf('mcp__github__create_issue')).toBe('github');
    expect(serverOf('mcp__github__a__b')).toBe('github');
    expect(serverOf('read')).toBeNull();
    expect(serverOf('mcp____x')).toBeNull();
  });
});
