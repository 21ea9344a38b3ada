/**
 * The per-turn announcement of deferred tools that appear mid-session: each
 * new one is told once, in the message sent next; one that disappears (loaded,
 * or its source gone) is passed over in silence; after a compaction every
 * one announced before is told again. Through the real agent loop and the
 * Anthropic SDK against the mock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemorySink, RunEmitter } from '../../src/events/index.js';
import { ANNOUNCE_OPEN, DeferredAnnouncer } from '../../src/harness/context/deferred-announcer.js';
import { DEFAULT_HARNESS_CONFIG } from '../../src/harness/config.js';
import { runAgent } from '../../src/harness/loop/agent-loop.js';
import { createRegistry } from '../../src/harness/tools/builtin.js';
import { createToolSearchTool } from '../../src/harness/tools/tool-search.js';
import type { Tool } from '../../src/harness/tools/tool.js';
import { mockModel } from '../../src/mock/msw-hub.js';

const simple = (name: string): Tool => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: z.strictObject({}),
  readOnly: true,
  isConcurrencySafe: () => true,
  execute: async () => ({ content: `${name} ran` }),
});

describe('DeferredAnnouncer', () => {
  it('announces each tool that appears after the first request once, is silent when one goes, and repeats all after a compaction', () => {
    const registry = createRegistry(['read', 'sleep'], { deferred: ['sleep'] });
    const announcer = new DeferredAnnouncer(registry);
    expect(announcer.take()).toBeNull(); // the baseline: named in tool_search's own description
    registry.register(simple('mcp__late__ping'), { deferred: true });
    expect(announcer.take()?.block.text).toContain('mcp__late__ping');
    expect(announcer.take()).toBeNull();
    registry.register(simple('mcp__late__pong'), { deferred: true });
    const second = announcer.take();
    expect(second?.count).toBe(1);
    expect(second?.block.text).not.toContain('mcp__late__ping');
    registry.activate(['mcp__late__pong']); // loaded: gone from the deferred list, silently
    expect(announcer.take()).toBeNull();
    expect(announcer.take(true)).toMatchObject({ count: 1, block: { text: expect.stringContaining('mcp__late__ping') } });
  });
});

describe('the loop announces a deferred tool that appeared mid-session', () => {
  it('in the next request only, and the model can load and call it', async () => {
    const registry = createRegistry(['read', 'sleep'], { deferred: ['sleep'] });
    // Stands in for an MCP server that connects while the session runs.
    registry.register({ ...simple('connect'), execute: async () => (registry.register(simple('mcp__late__ping'), { deferred: true }), { content: 'connected' }) });
    registry.register(createToolSearchTool(registry));
    const script = [
      { tool_use: [{ name: 'connect', input: {} }] },
      { rule: [{ when: { reminder: 'mcp__late__ping' }, then: { tool_use: [{ name: 'tool_search', input: { query: 'select:mcp__late__ping' } }] } }, { then: { text: 'I see no new tool.' } }] },
      { tool_use: [{ name: 'mcp__late__ping', input: {} }] },
      { text: 'Pinged.' },
    ];
    const { model, session } = mockModel(script, { wire: 'anthropic' });
    const workspace = mkdtempSync(join(tmpdir(), 'announce-'));
    const sink = new MemorySink();
    try {
      const result = await runAgent({ model, registry, emitter: new RunEmitter(sink, 'r').session('s', 't'), prompt: 'Connect, then ping.', workspace, config: DEFAULT_HARNESS_CONFIG });
      expect(result.finalText).toBe('Pinged.');
      const announced = sink.events().filter((e) => e.event === 'tools_announced');
      expect(announced).toMatchObject([{ turn: 2, reason: 'new_deferred', tools_count: 1 }]);
      // The announcement sits in the second request's last message, and only there.
      const withAnnouncement = result.messages.filter((m) => m.content.some((b) => b.type === 'text' && b.text.startsWith(ANNOUNCE_OPEN)));
      expect(withAnnouncement).toHaveLength(1);
      expect(session.requests.map((r) => r.request?.messages.at(-1)?.content.some((b) => b.type === 'text' && b.text.startsWith(ANNOUNCE_OPEN)))).toEqual([false, true, false, false]);
    } finally {
      session.close();
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
