/**
 * Harness overhead per tool call: the pipeline (lookup, validation, execution
 * wrapper with timeout/abort, serialization, the settlement exit) plus
 * telemetry (events built, validated by the types, JSON-encoded and written to
 * a real JSONL file). The tool body is a no-op and its own cost, measured
 * separately in the same run, is subtracted. No model call is involved.
 * Measured twice in one run: with every pipeline stage on (snapshot check,
 * PreToolUse and PostToolUse hooks (no-op), permission chain with the path
 * guard, truncate/spill check, display side channel, defense meter) and with
 * the optional stages off, so the ratio shows what the stages cost.
 *
 *   node --import tsx bench/harness-overhead.ts [calls-per-turn] [turns]
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { JsonlSink, RunEmitter } from '../src/events/index.js';
import { armedDefenses } from '../src/harness/defenses/catalog.js';
import { DefenseMeter } from '../src/harness/defenses/meter.js';
import { runTurnCalls } from '../src/harness/pipeline/run-turn-calls.js';
import { createSessionServices } from '../src/harness/pipeline/session-services.js';
import { ToolRegistry } from '../src/harness/tools/registry.js';
import type { Tool } from '../src/harness/tools/tool.js';
import type { ToolUseBlock } from '../src/providers/types.js';

const perTurn = Number(process.argv[2] ?? 10);
const turns = Number(process.argv[3] ?? 3000);

const schema = z.strictObject({ file_path: z.string(), limit: z.number().int().positive().optional() });
const noop: Tool<z.infer<typeof schema>> = {
  name: 'noop',
  description: 'Does nothing; used to measure harness overhead.',
  inputSchema: schema,
  readOnly: true,
  isConcurrencySafe: () => true,
  // Its path goes through the permission chain's path guard like a real read.
  accessedPaths: (input) => [{ path: input.file_path, access: 'read' }],
  async execute(input) {
    return { content: input.file_path };
  },
};

async function bodyOnly(n: number): Promise<number> {
  const signal = new AbortController().signal;
  const start = performance.now();
  for (let i = 0; i < n; i++) await noop.execute({ file_path: 'src/a.ts' }, { workspace: '/tmp', signal });
  return performance.now() - start;
}

async function pipeline(n: number, turnsToRun: number, dir: string, stages = true): Promise<number> {
  const sink = new JsonlSink(join(dir, `t-${n}.jsonl`));
  const emitter = new RunEmitter(sink, 'bench').session('s', 'task');
  const registry = new ToolRegistry([noop]);
  const signal = new AbortController().signal;
  const blocks: ToolUseBlock[] = Array.from({ length: n }, (_, i) => ({
    type: 'tool_use',
    id: `toolu_${i}`,
    name: 'noop',
    input: { file_path: `src/file-${i}.ts`, limit: 10 },
  }));
  const pipelineServices = stages
    ? createSessionServices({
        workspace: dir,
        mode: 'acceptEdits',
        headless: true,
        hooks: { preToolUse: () => undefined, postToolUse: () => undefined },
        onSettled: () => undefined,
      })
    : undefined;
  const defenses = stages ? new DefenseMeter(emitter, armedDefenses([])) : undefined;
  const start = performance.now();
  for (let t = 1; t <= turnsToRun; t++) {
    await runTurnCalls(blocks, t, { registry, emitter, workspace: dir, signal, defaultTimeoutMs: 120_000, pipeline: pipelineServices, defenses });
  }
  sink.close();
  return performance.now() - start;
}

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'faultline-bench-')));
// The files the calls name exist, as for a real read: the path guard resolves them like any read.
mkdirSync(join(dir, 'src'));
for (let i = 0; i < perTurn; i++) writeFileSync(join(dir, 'src', `file-${i}.ts`), '');
try {
  await pipeline(perTurn, 200, dir); // warm-up (JIT, zod caches)
  await bodyOnly(2000);
  const calls = perTurn * turns;
  const total = await pipeline(perTurn, turns, dir);
  const body = await bodyOnly(calls);
  const bare = await pipeline(perTurn, turns, dir, false);
  const overheadUs = ((total - body) / calls) * 1000;
  const bareUs = ((bare - body) / calls) * 1000;
  console.log(`harness overhead per tool call: ${overheadUs.toFixed(1)} µs (all pipeline stages + telemetry, tool body excluded)`);
  console.log(`  optional stages off (no hooks, permissions, snapshot, spill dir, display): ${bareUs.toFixed(1)} µs; stages cost ${(overheadUs / bareUs).toFixed(1)}x`);
  console.log(`  ${calls} calls in ${turns} turns of ${perTurn}; total ${total.toFixed(0)} ms, tool bodies ${body.toFixed(0)} ms`);
  console.log(`  target ≤ 50 µs: ${overheadUs <= 50 ? 'met' : 'NOT met'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
