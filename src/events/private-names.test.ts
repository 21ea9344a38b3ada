import { describe, expect, it } from 'vitest';
import { RunEmitter } from './emitter.js';
import { MemorySink } from './sink.js';
import { privateEvent, privateMcpNames, privateServerName, withMcpNames } from './private-names.js';

describe('private MCP names', () => {
  it('hashes server and tool apart, the same way everywhere, and leaves other names alone', () => {
    const name = privateMcpNames('mcp__acme_billing__refund_order');
    expect(name).toMatch(/^mcp__s_[0-9a-f]{8}__t_[0-9a-f]{8}$/);
    expect(name).not.toContain('acme');
    expect(name.slice(5, 15)).toBe(privateServerName('acme_billing'));
    expect(privateMcpNames('read')).toBe('read');
    expect(privateMcpNames('count(tool_success where tool = mcp__gh__get_issue) == 1')).not.toContain('gh__get_issue');
    expect(privateMcpNames('mcp_server:acme_billing')).toBe(`mcp_server:${privateServerName('acme_billing')}`);
  });

  it('rewrites labels, lists and a server event, and only when private', () => {
    const event = { event: 'session_start', tools: ['read', 'mcp__acme__x'], deferred_tools: ['mcp__acme__x'] } as never;
    expect(JSON.stringify(privateEvent(event))).not.toContain('acme');
    const server = privateEvent({ event: 'mcp_server', server: 'acme', state: 'connected' } as never) as { server: string };
    expect(server.server).toBe(privateServerName('acme'));
    const plain = new MemorySink();
    withMcpNames(plain, 'verbatim').emit({ event: 'mcp_server', server: 'acme' } as never);
    expect(JSON.stringify(plain.events())).toContain('"acme"');
  });

  it('makes an MCP name in a session id private on every event of the session, and leaves clean ids alone', () => {
    const sink = new MemorySink();
    const run = new RunEmitter(withMcpNames(sink), 'run-1');
    const named = run.session('s-1', 'mcp__acme_billing__refund_order');
    const clean = run.session('s-2', 'task-2');
    for (let i = 0; i < 3; i++) {
      named.emit('tools_announced', { turn: i, reason: 'new_deferred', tools_count: 1 });
      clean.emit('tools_announced', { turn: i, reason: 'new_deferred', tools_count: 1 });
    }
    const tasks = sink.events().map((e) => (e as { task_id: string }).task_id);
    expect(tasks.filter((t) => t === 'task-2')).toHaveLength(3);
    expect(tasks.filter((t) => t !== 'task-2')).toEqual(Array(3).fill(privateMcpNames('mcp__acme_billing__refund_order')));
    expect(JSON.stringify(sink.events())).not.toContain('acme');
  });
});
