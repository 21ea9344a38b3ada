/**
 * MCP costs, as ratios measured in one run (this machine is shared and noisy):
 *
 * 1. The token estimate (src/harness/results/token-estimate.ts) against the
 *    character count it replaces, per MB of English, CJK and base64 output.
 * 2. A tools/call through the harness (registry tool -> execute stage ->
 *    McpConnection -> SDK) against the same call made on the SDK client
 *    directly, on the stdio fault server's `echo`: what the harness adds.
 *
 *   node --import tsx bench/mcp.ts [calls]
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { defaultServerSpec } from '../src/harness/mcp/config.js';
import { McpManager } from '../src/harness/mcp/manager.js';
import { executeTool } from '../src/harness/pipeline/execute.js';
import { estimateTokens } from '../src/harness/results/token-estimate.js';
import { ToolRegistry } from '../src/harness/tools/registry.js';

const calls = Number(process.argv[2] ?? 300);
const server = join(import.meta.dirname, '../suites/faults/mcp/fault-server.mjs');

function perMb(label: string, text: string): void {
  const reps = 5;
  let sink = 0;
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) sink += estimateTokens(text);
  const estimate = (performance.now() - t0) / reps;
  // The cheapest full scan a byte limit would make: what the estimate costs on top of "just measure it".
  const t1 = performance.now();
  for (let i = 0; i < reps; i++) sink += Buffer.byteLength(text);
  const bytes = (performance.now() - t1) / reps;
  const mb = text.length / 1_000_000;
  console.log(`${label.padEnd(8)} ${Math.round(estimateTokens(text) / mb).toString().padStart(8)} tokens per M chars   estimate ${(estimate / mb).toFixed(1).padStart(6)} ms per M chars = ${(estimate / bytes).toFixed(1)}x Buffer.byteLength${sink < 0 ? '!' : ''}`);
}

const size = 2_000_000;
console.log(`token estimate over ${size / 1e6}M characters (mean of 5 runs each):`);
perMb('english', 'The build finished with two warnings and no errors. '.repeat(size / 52));
perMb('cjk', '工具结果必须按令牌计算而不是按字符'.repeat(size / 17));
perMb('base64', 'iVBORw0KGgoAAAANSUhEUgAAABQAAAAUCAYAAACNiR0N'.repeat(size / 44));

// 2. Harness call vs raw SDK call, same server binary, same number of calls.
const args = [server, '--tools', 'echo'];
const raw = new Client({ name: 'bench', version: '0' });
await raw.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
const registry = new ToolRegistry([]);
const manager = new McpManager([{ ...defaultServerSpec('b', { kind: 'stdio', command: process.execPath, args, env: {} }), trust: 'trusted' }], registry);
manager.start();
await manager.ready();
const tool = registry.get('mcp__b__echo')!;
const session = new AbortController().signal;

async function time(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await fn(); // warm up
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) await fn();
  return (performance.now() - t0) / calls;
}
// Alternate to spread the machine's noise over both.
let sdk = 0;
let harness = 0;
for (let round = 0; round < 3; round++) {
  sdk += await time(() => raw.callTool({ name: 'echo', arguments: { text: 'hi' } }));
  harness += await time(() => executeTool(tool, { text: 'hi' }, { workspace: '/tmp', sessionSignal: session, timeoutMs: 120_000 }));
}
console.log(`\ntools/call over stdio, ${calls} x 3 calls each: raw SDK ${(sdk / 3).toFixed(3)} ms/call, through the harness ${(harness / 3).toFixed(3)} ms/call, ratio ${(harness / sdk).toFixed(2)}`);
await raw.close();
await manager.close();
