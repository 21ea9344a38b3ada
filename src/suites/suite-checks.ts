/**
 * Checks across a suite's fields that the schema alone cannot make, run when
 * the suite loads so a typo fails there, with its line, and not at run time:
 *
 * - every name in `tools` (and `deferred_tools`) is a tool faultline has
 *   (error; did-you-mean);
 * - a scripted tool_use names a tool the task offers (warning: the model
 *   would be calling a tool that does not exist), unless the task says it is
 *   about exactly that with `expect_unknown_tools: true`; and a task that says
 *   so calls at least one such tool (warning);
 * - a pinned `transport` says why in `transport_reason` (error: a pin
 *   nobody can explain outlives its reason), and a reason pins something.
 *
 * Problems carry the path of the YAML node at fault; load-suite.ts turns it
 * into `file:line:col`.
 */
import { knownToolNames } from '../harness/tools/builtin.js';
import { isRule, type ReplySpec } from '../mock/script.js';
import { didYouMean } from './did-you-mean.js';
import { defaultToolNames, offersTool, taskRegistryNames } from './offered-tools.js';
import type { SuiteSpec, TaskSpec } from './schema.js';

export interface SuiteProblem {
  severity: 'error' | 'warning';
  path: PropertyKey[];
  message: string;
}

type Settings = NonNullable<SuiteSpec['defaults']>;

export function checkSuite(spec: SuiteSpec): SuiteProblem[] {
  const known = knownToolNames();
  const problems: SuiteProblem[] = [];
  const { defaults } = spec;
  if (defaults) problems.push(...toolListProblems(defaults, ['defaults'], known), ...transportProblems(defaults, ['defaults']));
  spec.tasks.forEach((task, i) => {
    const path = ['tasks', i];
    const merged = defaults ? checkedSettings(defaults, task) : task;
    if (task.transport !== undefined || task.transport_reason !== undefined) problems.push(...transportProblems(merged, path));
    const listed = toolListProblems(task, path, known);
    problems.push(...listed);
    // Unknown names are reported once, where they are written; the checks below would only repeat them.
    if (listed.length > 0 || (merged.tools ?? []).some((name) => !known.includes(name))) return;
    problems.push(...deferredProblems(merged, task, path));
    problems.push(...scriptedCallProblems(merged, path));
  });
  return problems;
}

type Checked = Pick<TaskSpec, 'tools' | 'deferred_tools' | 'mcp_servers' | 'transport' | 'transport_reason' | 'script' | 'expect_unknown_tools'>;

/**
 * What the checks read of `{ ...defaults, ...task }` (a key the task sets wins), without copying every key of
 * every task: the copies were a third of these checks' time on 2,000 tasks.
 */
function checkedSettings(defaults: Settings, task: TaskSpec): Checked {
  const pick = <K extends keyof Settings>(key: K): Settings[K] => (key in task ? (task as Settings)[key] : defaults[key]);
  return {
    tools: pick('tools'),
    deferred_tools: pick('deferred_tools'),
    mcp_servers: pick('mcp_servers'),
    transport: pick('transport'),
    transport_reason: pick('transport_reason'),
    script: task.script,
    expect_unknown_tools: task.expect_unknown_tools,
  };
}

function toolListProblems(settings: Settings, path: PropertyKey[], known: string[]): SuiteProblem[] {
  const problems: SuiteProblem[] = [];
  for (const key of ['tools', 'deferred_tools'] as const) {
    (settings[key] ?? []).forEach((name, k) => {
      if (known.includes(name)) return;
      problems.push({
        severity: 'error',
        path: [...path, key, k],
        message: `unknown tool "${name}"${didYouMean(name, known)}; tools: ${known.join(', ')}`,
      });
    });
  }
  return problems;
}

function transportProblems(settings: Pick<Settings, 'transport' | 'transport_reason'>, path: PropertyKey[]): SuiteProblem[] {
  if (settings.transport !== undefined && settings.transport_reason === undefined) {
    return [{ severity: 'error', path: [...path, 'transport'], message: `transport: ${settings.transport} needs transport_reason: why this task cannot run on the other transport` }];
  }
  if (settings.transport === undefined && settings.transport_reason !== undefined) {
    return [{ severity: 'error', path: [...path, 'transport_reason'], message: 'transport_reason without transport: say which transport the task pins (memory or http)' }];
  }
  return [];
}

/** A deferred tool must be one the task has (`tools` given without it is a contradiction). */
function deferredProblems(merged: Pick<Settings, 'tools' | 'deferred_tools'>, task: TaskSpec, path: PropertyKey[]): SuiteProblem[] {
  if (!merged.tools) return [];
  const where = task.deferred_tools ? path : ['defaults'];
  return (merged.deferred_tools ?? []).flatMap((name, k) =>
    merged.tools!.includes(name)
      ? []
      : [{ severity: 'error' as const, path: [...where, 'deferred_tools', k], message: `deferred tool "${name}" is not in this task's tools (${merged.tools!.join(', ')})` }],
  );
}

function scriptedCallProblems(task: Checked, path: PropertyKey[]): SuiteProblem[] {
  // Only the calls to a tool not offered get their path (the usual script has none).
  const unknown: { name: string; path: PropertyKey[] }[] = [];
  const check = (reply: ReplySpec, at: () => PropertyKey[]) =>
    (reply.tool_use ?? []).forEach((use, k) => {
      if (!offersTool(task, use.name)) unknown.push({ name: use.name, path: [...at(), 'tool_use', k, 'name'] });
    });
  (task.script ?? []).forEach((turn, j) => {
    if (isRule(turn)) turn.rule.forEach((branch, b) => check(branch.then, () => [...path, 'script', j, 'rule', b, 'then']));
    else check(turn, () => [...path, 'script', j]);
  });
  if (task.expect_unknown_tools) {
    if (unknown.length > 0) return [];
    return [{ severity: 'warning', path: [...path, 'expect_unknown_tools'], message: 'expect_unknown_tools is set, but the script calls no tool outside the task\'s tools' }];
  }
  const offered = taskRegistryNames(task) ?? defaultToolNames();
  return unknown.map((call) => ({
    severity: 'warning',
    path: call.path,
    message: `the script calls "${call.name}", a tool this task does not offer${didYouMean(call.name, offered)} (tools: ${offered.join(', ')}); if the task is about a hallucinated tool, set expect_unknown_tools: true`,
  }));
}
