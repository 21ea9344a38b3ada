/**
 * Runs one task as one session: a fresh workspace, the harness against the
 * task's model, then its expectations. Writes session_start, the harness's
 * events, one `expectation` per check, defense_stats and session_end.
 *
 * The workspace is lazy (see LazyWorkspace): made on the first tool call or
 * `files:` check (on a tmpfs faultline chose itself, at set-up:
 * workspace-place.ts says why), removed when the session ends. Removal runs in the
 * background when the caller collects it (`onCleanup`), so it never sits on
 * the session's critical path.
 */
import { dirname } from 'node:path';
import type { RunEmitter, SessionEmitter } from '../events/emitter.js';
import type { SandboxKind, SandboxMode, SessionOutcome, TurnStop } from '../events/labels.js';
import type { SandboxChoice } from '../harness/sandbox/sandbox.js';
import type { HarnessConfig } from '../harness/config.js';
import { loadDefenseModules } from '../harness/defenses/load-module.js';
import { armedDefenses, availableDefenses } from '../harness/defenses/registry.js';
import type { DefenseSessionContext, HookDefense } from '../harness/defenses/types.js';
import { setupAndSnapshots } from './session-setup.js';
import { harnessConfig } from './task-harness-config.js';
import { runAgent, type AgentResult } from '../harness/loop/agent-loop.js';
import type { PipelineServices } from '../harness/pipeline/services.js';
import { CollectingSink } from './collecting-sink.js';
import { evaluateExpectations, type ExpectationResult } from './expectations.js';
import { eventsRead, parseEventAssertion, type EventRecord } from './event-assertion.js';
import type { LoadedTask } from './load-suite.js';
import type { ModelSource } from './model-source.js';
import { taskPipeline, taskSandbox, taskTools, type TaskTools } from './task-pipeline.js';
import { LazyWorkspace } from './workspace.js';
import { placeWorkspace } from './workspace-place.js';
import { DescriptorShortageError, waitingOutShortage } from './shortage-wait.js';
import { loadShellParser } from '../harness/permissions/shell-parser.js';
import { outcomeTokens } from './session-usage.js';

export interface TaskRunOptions {
  run: RunEmitter;
  source: ModelSource;
  sessionId: string;
  repeat?: number;
  keepWorkspace?: boolean;
  /** Aborts every session of the run (Ctrl-C). */
  runSignal?: AbortSignal;
  /** `faultline run --sandbox`: overrides the task's `sandbox` setting. */
  sandbox?: SandboxMode;
  /** Takes the workspace removal to await later (the run awaits them all); without it runTask awaits it itself. */
  onCleanup?: (removal: Promise<void>) => void;
  /** Parent of the workspace (default: the OS temp directory). */
  tempDir?: string;
  /** tempDir is faultline's own choice (a RAM tmpfs): a workspace that cannot be made there goes to the temp directory (workspace-place.ts). */
  tempDirFallback?: boolean;
  /** Defenses armed beside the task's own modules. */
  extraDefenses?: readonly HookDefense[];
}

export interface TaskOutcome {
  task: LoadedTask;
  sessionId: string;
  /** 0-based repeat index (`--repeat k`). */
  repeat: number;
  outcome: SessionOutcome;
  stop: TurnStop;
  turns: number;
  tokens: number;
  durationMs: number;
  expectations: ExpectationResult[];
  /** Set when the harness or set-up failed (outcome `error`). */
  error?: string;
  /** Why the session stopped on a failed model call (stop `model_error`), e.g. `connection: connection refused to 127.0.0.1:11434 (6 attempts)`. */
  modelError?: string;
  /** Kept only with keepWorkspace. */
  workspace?: string;
  /** The OS sandbox bash ran in, and why there was none when auto found none. */
  sandbox?: SandboxKind;
  sandboxNote?: string | null;
}

export async function runTask(task: LoadedTask, options: TaskRunOptions): Promise<TaskOutcome> {
  const started = performance.now();
  const sink = new CollectingSink(options.run.sink, eventsToKeep(task));
  const session = options.run.session(options.sessionId, task.id, sink);
  let config = harnessConfig(task);
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (error: unknown): TaskOutcome => ({
    task,
    sessionId: options.sessionId,
    repeat: options.repeat ?? 0,
    outcome: 'error',
    stop: 'harness_error',
    turns: 0,
    tokens: 0,
    durationMs: elapsed(),
    expectations: [],
    error: error instanceof Error ? error.message : String(error),
  });

  let registry;
  let tools: TaskTools;
  let lazy: LazyWorkspace | undefined;
  let pipeline: PipelineServices;
  let sandbox: SandboxChoice;
  try {
    // Set-up already judges bash (snapshots, defenses): the grammar must be in memory before it.
    await loadShellParser();
    tools = taskTools(task);
    registry = tools.registry;
    lazy = options.tempDirFallback ? await placeWorkspace(task.files, options.tempDir) : new LazyWorkspace(task.files, options.tempDir);
    // A kept workspace is printed for a person to open, so it must exist even when no tool ran.
    if (options.keepWorkspace) await lazy.ensure();
    const made = lazy;
    // MCP servers run in the workspace (their cwd, `${workspace}`): a task with servers makes it before they launch.
    if (tools.mcp) await made.ensure();
    tools.mcp?.prepare(made.root);
    sandbox = taskSandbox(task, made.root, options.sandbox);
    // A workspace removed at the session's end holds its snapshots in memory (harness/pipeline/snapshot-memory.ts).
    pipeline = await taskPipeline(task, tools, made.root, sandbox.sandbox, () => made.ensure(), !options.keepWorkspace);
    config = await sessionConfig(task, config, made, sandbox, options.extraDefenses ?? []);
  } catch (error) {
    await lazy?.remove();
    return fail(error);
  }
  const workspace = lazy.root;
  const context: DefenseSessionContext = { workspace, system: '', snapshots: config.snapshots ?? [] };
  const selection = { disabled: config.disabledDefenses, enabled: config.enabledDefenses, user: config.userDefenses };
  session.emit('session_start', {
    scenario: task.scenario ?? null,
    repeat: options.repeat ?? 0,
    defenses_armed: armedNames(armedDefenses(selection, context, config.tokenBudget !== null), config.faults?.claimedDefenses),
    defenses_available: availableDefenses(selection).map((d) => d.name),
    tools: registry.names(),
    deferred_tools: tools.deferred,
    permission_mode: tools.mode,
    headless: tools.headless,
    sandbox: sandbox.sandbox.kind,
    sandbox_mode: sandbox.mode,
    ...(options.source.transport ? { transport: options.source.transport(task) } : {}),
  });

  const abort = new AbortController();
  const onRunAbort = () => abort.abort('run_aborted');
  // A listener added to a signal already aborted never fires: a session started after the abort stops at once.
  if (options.runSignal?.aborted) onRunAbort();
  else options.runSignal?.addEventListener('abort', onRunAbort, { once: true });
  const timer = task.abort_after_ms ? setTimeout(() => abort.abort('user_abort'), task.abort_after_ms) : null;
  let result: AgentResult | null = null;
  let error: unknown = null;
  try {
    // MCP servers start now (mcp_server events follow session_start); the blocking ones are waited for.
    await tools.mcp?.launch((server, event) => session.emit('mcp_server', { server, ...event }), abort.signal);
    const opened = await options.source.open(task, { repeat: options.repeat ?? 0, workspace });
    try {
      result = await runAgent({ model: opened.model, registry, emitter: session, prompt: task.prompt, workspace, config, signal: abort.signal, pipeline });
    } finally {
      await opened.close();
    }
  } catch (caught) {
    error = caught;
  } finally {
    if (timer) clearTimeout(timer);
    options.runSignal?.removeEventListener('abort', onRunAbort);
    await tools.mcp?.close();
  }

  // A defense that threw is broken: the session must not look green (its hooks' errors are the message).
  if (error === null && result && result.defenses.hookErrors.length > 0) error = new Error(result.defenses.hookErrors.join('; '));
  const stop: TurnStop = result?.stop ?? 'harness_error';
  if (result && task.expect.files && Object.keys(task.expect.files).length > 0) await lazy.ensure().catch(() => undefined);
  // A workspace that could not be made is the machine's fault, not the task's: the session is an error.
  if (error === null && lazy.failure) error = lazy.failure;
  let expectations: ExpectationResult[] = [];
  const finished = result;
  if (finished) {
    // Out of descriptors while reading the workspace is the harness's shortage: waited out, else the session's error.
    try {
      const checked = waitingOutShortage(() => evaluateTask(task, finished, workspace, sink));
      expectations = checked instanceof Promise ? await checked : checked;
      for (const r of expectations) session.expectation(r.id, r.ok, r.detail);
    } catch (caught) {
      if (!(caught instanceof DescriptorShortageError)) throw caught;
      error ??= caught;
    }
  }
  // A kept workspace outlives the run: its held descriptor is given back now (removal gives it back otherwise).
  if (options.keepWorkspace) lazy.unpin();
  const outcome: SessionOutcome =
    options.runSignal?.aborted ? 'aborted' : error !== null ? 'error' : expectations.every((e) => e.ok) ? 'passed' : 'failed';
  // Without the harness's result (runAgent threw), what its events recorded: reports sum session_end's tokens.
  const { turns, ...usage } = result ? { turns: result.turns, ...result.usage } : { ...sink.usage };
  session.emit('session_end', { outcome, stop, turns, ...usage, duration_ms: elapsed() });
  // Nothing can be restored once the session ended: its snapshots held in memory give their bytes back.
  pipeline.snapshotMemory?.release();
  if (!options.keepWorkspace) {
    const removal = lazy.remove();
    if (options.onCleanup) options.onCleanup(removal);
    else await removal;
  }
  return {
    task,
    sessionId: options.sessionId,
    repeat: options.repeat ?? 0,
    outcome,
    stop,
    turns,
    tokens: outcomeTokens(usage),
    durationMs: elapsed(),
    expectations,
    ...(error !== null ? { error: error instanceof Error ? error.message : String(error) } : {}),
    ...(result?.modelError !== undefined ? { modelError: result.modelError } : {}),
    ...(options.keepWorkspace ? { workspace } : {}),
    sandbox: sandbox.sandbox.kind,
    sandboxNote: sandbox.note,
  };
}

/** The armed defenses' names, then the claimed ones: built by push, one array kind whether or not V8 optimized the caller (a spread of a `.map` is not). */
function armedNames(armed: readonly { name: string }[], claimed: readonly string[] | undefined): string[] {
  const names: string[] = [];
  for (let i = 0; i < armed.length; i++) names.push(armed[i]!.name);
  if (claimed) for (let i = 0; i < claimed.length; i++) names.push(claimed[i]!);
  return names;
}

/** The events a task's event assertions read: the session keeps only those (a copy of every event is what nobody reads). */
function eventsToKeep(task: LoadedTask): Set<string> {
  const names = new Set<string>();
  for (const source of task.expect.events ?? []) {
    try {
      for (const name of eventsRead(parseEventAssertion(source).metric)) names.add(name);
    } catch {
      // checked at load; one that still does not parse fails in evaluateExpectations, with its message
    }
  }
  return names;
}

/** Without an explicit `expect.stop`, a task must end normally (`end_turn`). */
function evaluateTask(task: LoadedTask, result: AgentResult, workspace: string, sink: CollectingSink): ExpectationResult[] {
  const expect = { ...task.expect, stop: task.expect.stop ?? 'end_turn' };
  return evaluateExpectations(expect, {
    finalText: result.finalText,
    stop: result.stop,
    workspace,
    events: sink.collected as unknown as EventRecord[],
  });
}

/**
 * What a session needs beyond the task's static settings: its defense
 * modules, the setup script's effect and the facts to freeze into the system
 * prompt (both need the workspace, so they make it now).
 */
async function sessionConfig(
  task: LoadedTask,
  config: HarnessConfig,
  workspace: LazyWorkspace,
  sandbox: SandboxChoice,
  extra: readonly HookDefense[],
): Promise<HarnessConfig> {
  const own: HookDefense[] = task.defenses?.length ? await loadDefenseModules(task.defenses, dirname(task.file)) : [];
  const userDefenses = [...own, ...extra.filter((d) => !own.some((o) => o.name === d.name))];
  if (!task.setup && !task.system_snapshot) return { ...config, userDefenses };
  await workspace.ensure();
  return { ...config, userDefenses, snapshots: await setupAndSnapshots(task, workspace.root, sandbox.sandbox) };
}
