/**
 * `runScenario()`: one fault scenario (a task of a suite file) through
 * faultline's own harness against the scripted mock, over real loopback HTTP
 * and the official SDK clients, as `faultline run` does it — for a user's own
 * vitest suite that checks their own defense. Returns the session's events
 * for the matchers (matchers.ts) and its outcome.
 */
import { dirname, resolve } from 'node:path';
import { MemorySink, type FaultlineEvent } from '../events/index.js';
import type { TurnStop } from '../events/labels.js';
import type { HookDefense } from '../harness/defenses/types.js';
import { loadSuites, type LoadedTask } from '../suites/load-suite.js';
import { mockModelSource } from '../suites/mock-source.js';
import { runSuite } from '../suites/run-suite.js';
import type { TaskOutcome } from '../suites/run-task.js';
import type { ExpectationResult } from '../suites/expectations.js';

export interface ScenarioOptions {
  /** A suite file or directory. */
  suite: string;
  /** The task's id (optional when the suite has one task). */
  task?: string;
  /** Defenses to arm besides the task's own: objects, or module paths (relative to the working directory). */
  defenses?: ReadonlyArray<HookDefense | string>;
  /** Defenses to switch off (the mutation check: the scenario should fail without its defense). */
  disable?: readonly string[];
  /** Defenses that are off by default, switched on. */
  enable?: readonly string[];
  /** Force a wire (default: the task's). */
  wire?: 'anthropic' | 'openai' | 'responses' | 'gemini';
  stream?: boolean;
}

export interface ScenarioRun {
  task: LoadedTask;
  outcome: TaskOutcome['outcome'];
  /** The scenario's own checks all held. */
  passed: boolean;
  stop: TurnStop;
  expectations: ExpectationResult[];
  /** Every event of the session (run events excluded), in order. */
  events: FaultlineEvent[];
  /** Set when the session could not run. */
  error?: string;
}

export class ScenarioError extends Error {
  readonly code = 'SCENARIO';
}

export async function runScenario(options: ScenarioOptions): Promise<ScenarioRun> {
  const tasks = loadSuites([options.suite]);
  const found = options.task ? tasks.find((t) => t.id === options.task) : tasks.length === 1 ? tasks[0] : undefined;
  if (!found) {
    const which = options.task ? `no task "${options.task}"` : `${tasks.length} tasks (name one with \`task\`)`;
    throw new ScenarioError(`${options.suite}: ${which}; tasks: ${tasks.map((t) => t.id).join(', ')}`);
  }
  const modules = (options.defenses ?? []).filter((d): d is string => typeof d === 'string').map((p) => resolve(p));
  const objects = (options.defenses ?? []).filter((d): d is HookDefense => typeof d !== 'string');
  const task: LoadedTask = {
    ...found,
    // Module paths of the task are relative to its suite file; the options' are absolute by now.
    defenses: [...(found.defenses ?? []).map((m) => resolve(dirname(found.file), m)), ...modules],
    disabled_defenses: [...(found.disabled_defenses ?? []), ...(options.disable ?? [])],
    enabled_defenses: [...(found.enabled_defenses ?? []), ...(options.enable ?? [])],
    // Forced here, on the task: the mock's own `wire` is only a default for tasks that pin none.
    ...(options.wire ? { wire: options.wire } : {}),
  };
  const sink = new MemorySink();
  const source = mockModelSource(options.stream !== undefined ? { stream: options.stream } : {});
  const summary = await runSuite({ tasks: [task], sink, source, extraDefenses: objects });
  const outcome = summary.outcomes[0]!;
  const events = sink.events().filter((e) => 'session_id' in e && e.session_id === outcome.sessionId);
  return {
    task,
    outcome: outcome.outcome,
    passed: outcome.outcome === 'passed',
    stop: outcome.stop,
    expectations: outcome.expectations,
    events,
    ...(outcome.error ? { error: outcome.error } : {}),
  };
}
