/**
 * MCP server and tool names are private names: a run's trace carries them
 * hashed by default, and verbatim only when asked. A real run of an MCP fault
 * scenario (a local MCP server named `docs`) through the `run` API, both ways;
 * the suite's own expectations (written with the real names) pass either way.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/api/run.js';
import { privateMcpNames, privateServerName } from '../../src/events/private-names.js';
import { tempDir } from '../analysis/fixtures.js';

const suite = join(import.meta.dirname, '../../suites/faults/mcp/004-huge-description.yaml');

describe('MCP names in a run\'s trace', () => {
  it('are hashed by default and verbatim with mcpNames: verbatim', async () => {
    const dir = tempDir();
    const hidden = join(dir, 'private.jsonl');
    const shown = join(dir, 'verbatim.jsonl');
    const a = await run(suite, { out: hidden });
    const b = await run(suite, { out: shown, mcpNames: 'verbatim' });
    expect([a.passed, b.passed]).toEqual([1, 1]);
    const privateText = readFileSync(hidden, 'utf8');
    const verbatimText = readFileSync(shown, 'utf8');
    expect(verbatimText).toContain('"server":"docs"');
    expect(verbatimText).toMatch(/"tool":"mcp__docs__/);
    expect(privateText).not.toMatch(/mcp__docs__|"server":"docs"|mcp_server:docs/);
    expect(privateText).toContain(`"server":"${privateServerName('docs')}"`);
    const tool = /"tool":"(mcp__docs__[A-Za-z0-9_.-]+)"/.exec(verbatimText)![1]!;
    expect(privateText).toContain(`"tool":"${privateMcpNames(tool)}"`);
  }, 120_000);
});
