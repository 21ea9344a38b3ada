/**
 * A real MCP tool through the whole pipeline (runAgent, the official SDK
 * client over msw, the stdio fault server): its PostToolUse hook gets the raw
 * output before the token limit cuts it (docs/harness-rules.md#pipeline-order: a redaction hook must see
 * what a cut would hide), the spill holds the hook's rewrite, and the model
 * gets head and tail with the sizes in tokens.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HookSet } from '../../src/harness/hooks/types.js';
import { McpManager } from '../../src/harness/mcp/manager.js';
import { Slots } from '../../src/harness/mcp/slots.js';
import { createRegistry } from '../../src/harness/tools/builtin.js';
import { stopMockHub } from '../../src/mock/msw-hub.js';
import { runPipeline } from '../pipeline/run-pipeline.js';
import { faultSpec } from './servers.js';

afterAll(() => stopMockHub());

describe('an MCP tool in the pipeline', { timeout: 120_000 }, () => {
  it('lets the PostToolUse hook see the raw output, then limits the rewrite in tokens and spills it', async () => {
    const registry = createRegistry(['read']);
    const manager = new McpManager([faultSpec('big', ['--tools', 'cjk'], { deferred: false })], registry, { slots: { local: new Slots(3), remote: new Slots(20) } });
    manager.start();
    await manager.ready();
    const seen: { tool: string; length: number; source: string }[] = [];
    const hooks: HookSet = {
      postToolUse: (e) => {
        seen.push({ tool: e.tool, length: e.output.length, source: e.source });
        return { output: e.output.replaceAll('令牌', '[redacted]') };
      },
    };
    let workspace = '';
    try {
      const run = await runPipeline([{ tool_use: [{ name: 'mcp__big__cjk', id: 'toolu_cjk', input: { chars: 40_000 } }] }, { text: 'done' }], {
        registry,
        hooks,
        rules: [{ id: 'trust-big', effect: 'allow', tool: 'mcp__big__*' }],
      });
      workspace = run.workspace;
      expect(seen).toEqual([{ tool: 'mcp__big__cjk', length: 40_000, source: 'mcp' }]);
      expect(run.of('tool_call')[0]).toMatchObject({ source: 'mcp' });
      expect(run.of('tool_success')[0]).toMatchObject({ truncated: true, spilled: true, raw_bytes: 120_000 });
      const [result] = run.results();
      expect(result!.content).toMatch(/\[Output too long \(about \d+ tokens, over the 25000-token limit for this tool: showing the first \d+ and last \d+ of \d+ characters\)\. The full output is saved at \.faultline\/spill\/t1-toolu_cjk\.txt/);
      expect(result!.content).not.toContain('令牌');
      const spills = readdirSync(join(workspace, '.faultline/spill'));
      const spill = readFileSync(join(workspace, '.faultline/spill', spills[0]!), 'utf8');
      expect(spill).toContain('[redacted]');
      expect(spill).not.toContain('令牌');
    } finally {
      await manager.close();
      if (workspace) rmSync(workspace, { recursive: true, force: true });
    }
  });
});
