/**
 * Harness overhead per tool call: the pipeline (lookup, validation, execution
 * wrapper with timeout/abort, serialization, the settlement exit) plus
 * telemetry (events built, validated by the types, JSON-encoded and written to
 * a real JSONL file). The tool body is a no-op and its own cost, measured
 * separately in the same run, is subtracted. No model call is involved.
 * Measured twice in one run: with every pipeline stage on (snapshot check,
 * PreToolUse and PostToolUse hooks (no-op), permission chain with the path
 * guard, truncate/spill check, display side channel, and every default-on
 * defense judging each settled call and the turn, as the loop runs them) and with
 * the optional stages off, so the ratio shows what the stages cost.
 *
 *   node --import tsx bench/harness-overhead.ts [calls-per-turn] [turns]
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { JsonlSink, RunEmitter } from '../src/events/index.js';
import { DefenseRuntime } from '../src/harness/defenses/runtime.js';
import { turnView } from '../src/harness/loop/turn-view.js';
import type { CallLedger } from '../src/harness/pipeline/settlement.js';
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

async function pipeline(n: number, turnsToRun: number, dir: string, stages = true, withDefenses = stages): Promise<number> {
  const sink = new JsonlSink(join(dir, `t-${n}.jsonl`));
  const emitter = new RunEmitter(sink, 'bench').session('s', 'task');
  const registry = new ToolRegistry([noop]);
  const signal = new AbortController().signal;
  // A different limit each turn: the defenses judge fresh calls, as in a working session (not a loop they would stop).
  const blocksOf = (turn: number): ToolUseBlock[] =>
    Array.from({ length: n }, (_, i) => ({ type: 'tool_use', id: `toolu_${turn}_${i}`, name: 'noop', input: { file_path: `src/file-${i}.ts`, limit: turn } }));
  const pipelineServices = stages
    ? createSessionServices({
        workspace: dir,
        mode: 'acceptEdits',
        headless: true,
        hooks: { preToolUse: () => undefined, postToolUse: () => undefined },
        onSettled: () => undefined,
      })
    : undefined;
  const defenses = withDefenses
    ? new DefenseRuntime({ emitter, context: { workspace: dir, system: '', snapshots: [] }, hasTokenBudget: false })
    : undefined;
  const usage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
  const start = performance.now();
  for (let t = 1; t <= turnsToRun; t++) {
    const blocks = blocksOf(t);
    const ledger: CallLedger = new Map();
    const results = await runTurnCalls(blocks, t, { registry, emitter, workspace: dir, signal, defaultTimeoutMs: 120_000, pipeline: pipelineServices, defenses: defenses?.meter, ledger });
    if (defenses) {
      await defenses.afterTurn(turnView(t, '', blocks, results, ledger, usage), (tool) => tool);
      defenses.takeReminders();
    }
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
  const noDefenses = await pipeline(perTurn, turns, dir, true, false);
  const overheadUs = ((total - body) / calls) * 1000;
  const bareUs = ((bare - body) / calls) * 1000;
  const noDefensesUs = ((noDefenses - body) / calls) * 1000;
  console.log(`harness overhead per tool call: ${overheadUs.toFixed(1)} µs (all pipeline stages + telemetry, tool body excluded)`);
  console.log(`  optional stages off (no hooks, permissions, snapshot, spill dir, display): ${bareUs.toFixed(1)} µs; stages cost ${(overheadUs / bareUs).toFixed(1)}x`);
  console.log(`  every stage but the defenses' per-call and per-turn judging: ${noDefensesUs.toFixed(1)} µs; the defenses add ${(overheadUs - noDefensesUs).toFixed(1)} µs per call (${(overheadUs / noDefensesUs).toFixed(2)}x)`);
  console.log(`  ${calls} calls in ${turns} turns of ${perTurn}; total ${total.toFixed(0)} ms, tool bodies ${body.toFixed(0)} ms; load average ${loadavg()[0]!.toFixed(1)}`);
  console.log(`  target ≤ 50 µs: ${overheadUs <= 50 ? 'met' : 'NOT met'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
