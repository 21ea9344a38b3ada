/** One batch of verify-defense sessions: each task run once, with the defenses that fired in its session. */
import { MemorySink } from '../../events/index.js';
import type { SandboxMode } from '../../events/labels.js';
import type { LoadedTask } from '../load-suite.js';
import type { ModelSource } from '../model-source.js';
import { runSuite } from '../run-suite.js';
import type { TaskOutcome } from '../run-task.js';

export interface ScenarioResult {
  task: LoadedTask;
  outcome: TaskOutcome['outcome'];
  /** Defenses that fired in the session (defense_trigger). */
  fired: Set<string>;
  /** The checks that failed, and the error of a session that could not run. */
  failures: string[];
  durationMs: number;
  /** Calls the permission chain refused (deny or headless ask), with the rule that refused them. */
  denials: { tool: string; turn: number | null; rule: string }[];
}

export interface PhaseOptions {
  source: ModelSource;
  concurrency: number;
  sandbox?: SandboxMode;
  tempDir?: string;
  /** Aborts the running sessions (they end aborted, their workspaces removed) and starts no more. */
  signal?: AbortSignal;
  onDone?: (result: ScenarioResult) => void;
}

export async function runPhase(tasks: LoadedTask[], options: PhaseOptions): Promise<ScenarioResult[]> {
  if (tasks.length === 0) return [];
  const sink = new MemorySink();
  const results: ScenarioResult[] = [];
  const summary = await runSuite({
    tasks,
    sink,
    source: options.source,
    concurrency: options.concurrency,
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.tempDir ? { tempDir: options.tempDir } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const fired = new Map<string, Set<string>>();
  const denials = new Map<string, ScenarioResult['denials']>();
  for (const e of sink.events()) {
    if (e.event === 'permission_decision' && e.decision !== 'allow' && e.rule_id !== null) {
      const list = denials.get(e.session_id) ?? [];
      list.push({ tool: e.tool, turn: e.turn ?? null, rule: e.rule_id });
      denials.set(e.session_id, list);
    }
    if (e.event !== 'defense_trigger') continue;
    const set = fired.get(e.session_id) ?? new Set<string>();
    set.add(e.defense);
    fired.set(e.session_id, set);
  }
  for (const o of summary.outcomes) {
    const failures = [...(o.error ? [o.error] : []), ...o.expectations.filter((x) => !x.ok).map((x) => x.detail)];
    const result = { task: o.task, outcome: o.outcome, durationMs: o.durationMs, fired: fired.get(o.sessionId) ?? new Set<string>(), failures, denials: denials.get(o.sessionId) ?? [] };
    results.push(result);
    options.onDone?.(result);
  }
  return results;
}
