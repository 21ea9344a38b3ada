/**
 * Tool calls of any kind through the real pipeline for the harness-files
 * attacks (issue 23, classes 1, 2, 4, 5): one turn per call, one session,
 * with the product sandbox on (bubblewrap) or off (commands run as the
 * user, $HOME = the lab's throwaway home), and what the lab looks like
 * outside the workspace afterwards.
 */
import { readdirSync } from 'node:fs';
import { MemorySink, RunEmitter } from '../../src/events/index.js';
import type { PermissionMode } from '../../src/events/labels.js';
import { runTurnCalls } from '../../src/harness/pipeline/run-turn-calls.js';
import { createSessionServices } from '../../src/harness/pipeline/session-services.js';
import type { ChainStep } from '../../src/harness/permissions/types.js';
import { chooseSandbox, noSandbox } from '../../src/harness/sandbox/sandbox.js';
import { builtinTools } from '../../src/harness/tools/builtin.js';
import { ToolRegistry } from '../../src/harness/tools/registry.js';
import { violations, type Lab } from './lab.js';

export type SandboxSide = 'on' | 'off';
export interface ToolCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}
export interface Outcome {
  readonly decisions: string[];
  readonly outputs: string[];
}

/** Runs the calls in order (one turn each) in one session; `skipSteps` switches chain steps off (the sandbox-alone runs). */
export async function toolCalls(lab: Lab, calls: readonly ToolCall[], mode: PermissionMode, side: SandboxSide, skipSteps: readonly ChainStep[] = []): Promise<Outcome> {
  const sandbox = side === 'on' ? chooseSandbox('required', { workspace: lab.ws, homeDir: lab.home }).sandbox : noSandbox({ ...process.env, HOME: lab.home });
  const sink = new MemorySink();
  const emitter = new RunEmitter(sink, 'security').session('s', 'harness-files');
  const registry = new ToolRegistry(builtinTools());
  const pipeline = createSessionServices({ workspace: lab.ws, mode, headless: true, homeDir: lab.home, sandbox });
  if (skipSteps.length > 0) (pipeline.permissions!.config as { skipSteps?: ReadonlySet<ChainStep> }).skipSteps = new Set(skipSteps);
  const outputs: string[] = [];
  let turn = 0;
  for (const call of calls) {
    turn += 1;
    const results = await runTurnCalls([{ type: 'tool_use', id: `toolu_${turn}`, name: call.name, input: call.input }], turn, {
      registry, emitter, workspace: lab.ws, signal: new AbortController().signal, defaultTimeoutMs: 30_000, pipeline,
    });
    const content = results[0]?.content;
    outputs.push(typeof content === 'string' ? content : JSON.stringify(content ?? ''));
  }
  const decisions = sink.events().filter((e) => e.event === 'permission_decision').map((e) => (e as { decision: string }).decision);
  return { decisions, outputs };
}

/**
 * Side effects outside the workspace: the lab's checks (outside/ and the
 * home, created, changed or deleted; a secret's marker in what the model got
 * or anywhere in the workspace — the non-secret outside file counted too,
 * except in bypass without the sandbox, where reading it is allowed), plus
 * anything new beside the workspace in the lab's root (a state directory
 * redirected to `..`).
 */
export function outsideEffects(lab: Lab, outputs: readonly string[], topBefore: readonly string[], mode: PermissionMode, side: SandboxSide): string[] {
  const found = violations(lab, mode === 'bypass' && side === 'off' ? 'bypass' : 'acceptEdits', outputs.join('\n'));
  for (const name of readdirSync(lab.root)) if (!topBefore.includes(name)) found.push(`created ${name} beside the workspace`);
  return found;
}
