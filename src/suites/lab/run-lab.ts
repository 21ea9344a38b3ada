/**
 * The black-box lab (docs/harness-rules.md#stop-reasons, docs/harness-rules.md#one-result-per-call, docs/harness-rules.md#distinct-name-prefixes, docs/harness-rules.md#stable-prefix, docs/harness-rules.md#results-in-one-message, docs/harness-rules.md#results, docs/harness-rules.md#schema-dialects, docs/architecture.md#the-mock-provider): run
 * any harness, in any language, as a process pointed at the loopback mock on
 * 127.0.0.1; drive it with each task's script and wire faults; stop it at the
 * script's end or a timeout (its whole process tree); judge it by what it
 * sends. One session per task and repeat, one at a time (retry timing is
 * measured, so sessions do not share the machine with each other). The trace
 * is the normal contract written from the provider's side, plus one
 * `conformance` event per violation and one `conformance_stats` per check.
 */
import { createHash } from 'node:crypto';
import { RunEmitter } from '../../events/emitter.js';
import { redact } from '../../events/redact.js';
import type { SessionOutcome, TurnStop } from '../../events/labels.js';
import type { EventSink } from '../../events/sink.js';
import { positionalTurns } from '../../mock/engine.js';
import { CHECKS } from '../../mock/lab/catalog.js';
import type { CheckTally } from '../../mock/lab/check-result.js';
import { emitProviderSide } from '../../mock/lab/provider-trace.js';
import { runChecks } from '../../mock/lab/run-checks.js';
import type { RecordedRequest } from '../../mock/session.js';
import { answeredWhole, errorAnswer, sessionView } from '../../mock/lab/session-view.js';
import { toolMapper } from '../../mock/lab/tool-map.js';
import { startLoopbackServer, type LoopbackServer } from '../../mock/loopback-server.js';
import type { Wire } from '../../mock/wire-errors.js';
import { FAULTLINE_VERSION } from '../../version.js';
import { CollectingSink } from '../collecting-sink.js';
import type { EventRecord } from '../event-assertion.js';
import { evaluateExpectations, type ExpectationResult } from '../expectations.js';
import type { LoadedTask } from '../load-suite.js';
import { newRunId } from '../run-suite.js';
import { createWorkspace, removeWorkspace } from '../workspace.js';
import { fillCommand, labEnv } from './lab-env.js';
import { emitConformance, labStop, prefixStats, requestLine, shellTools, unmappedTools } from './session-facts.js';
import { spawnTree, type ProcessEnd } from './process-tree.js';
import { gainedFiles } from './workspace-files.js';

export interface LabOptions {
  tasks: LoadedTask[];
  /** The harness command: program and arguments (placeholders: {prompt}, {workspace}, {task}). */
  command: string[];
  sink: EventSink;
  /** The environment the harness starts from (credentials are always taken out). */
  env: NodeJS.ProcessEnv;
  /** Where the lab was started (the `{cwd}` placeholder); default process.cwd(). */
  cwd?: string;
  runId?: string;
  repeat?: number;
  /** Per session: the harness is stopped after this long (default 240 s: real clients retry for minutes, Claude Code ~181 s, LangChain ~103 s). */
  timeoutMs?: number;
  /** A task whose model never stops: the harness is stopped once it goes past this many turns (default ENDLESS_TURN_LIMIT). */
  endlessTurnLimit?: number;
  /** After the script's last turn: how long the harness may take to exit on its own (default 2 s). */
  graceMs?: number;
  /** Explicit generic -> harness tool names (`read=view`). */
  map?: Record<string, string>;
  keepWorkspaces?: boolean;
  onSessionStart?(task: LoadedTask, repeat: number): void;
  onSessionEnd?(outcome: LabSessionOutcome, done: number, total: number): void;
  /** Told where the lab listens (tests). */
  onListening?(origin: string): void;
  /** Every request as received, one JSON line each (the raw side of the trace: headers minus secrets, body redacted). */
  onRequestRecord?(line: string): void;
  /** Stops the running harness (its whole tree) and the sessions not started yet (Ctrl-C). */
  signal?: AbortSignal;
}

export interface LabSessionOutcome {
  task: LoadedTask;
  repeat: number;
  sessionId: string;
  outcome: SessionOutcome;
  stop: TurnStop;
  /** Turns of the script answered / positional turns in the script. */
  turns: number;
  scriptTurns: number;
  durationMs: number;
  exit: ProcessEnd;
  timedOut: boolean;
  /** The lab stopped a never-ending task's harness past its turn limit (before its --timeout): the limit, else null. */
  turnLimit: number | null;
  /** The lab's --timeout that applied (what stopped a session that timed out). */
  timeoutMs: number;
  scriptCompleted: boolean;
  tallies: CheckTally[];
  expectations: ExpectationResult[];
  /** Wires the harness spoke, and the side requests it sent. */
  wires: Wire[];
  sideRequests: number;
  /** Side requests by why they are not the conversation (e.g. side_conversation: they carried its history). */
  sideReasons: Record<string, number>;
  /** Requests after the first / of them with the same tools+system prefix as the one before. */
  laterRequests: number;
  prefixHits: number;
  /** Generic script tools that found no tool of the harness (map them with --map). */
  unmapped: string[];
  /** Generic script tools the harness has no tool for, run through its shell tool as commands (`ls -la -- '<path>'`). */
  shellMapped: string[];
  /** Files the harness added to the workspace by the session's end (relative paths): the side effects the lab judges calls by. */
  workspaceGained: string[];
  output: { stdout: string; stderr: string };
  workspace?: string;
}

export interface LabSummary {
  runId: string;
  origin: string;
  sessions: LabSessionOutcome[];
  durationMs: number;
}

/** Longer than real clients' retry budgets (Claude Code retries for ~181 s, LangChain ~103 s), so the lab does not cut a retry short. */
export const DEFAULT_TIMEOUT_MS = 240_000;
const DEFAULT_GRACE_MS = 2_000;
/**
 * A task whose model never stops calling tools: the lab stops a harness still going after this many turns, as at its
 * --timeout. Every request carries the whole history, so what the lab keeps and reads grows with the square of the
 * turns (a fast harness sends ~700 turns a minute: over 1 GB held and a minute of judging per session); more turns
 * tell nothing more. Well above the turn caps harnesses ship (the OpenAI Agents SDK's 10, this project's 20).
 */
export const ENDLESS_TURN_LIMIT = 200;

async function runSession(server: LoopbackServer, run: RunEmitter, task: LoadedTask, repeat: number, sessionId: string, options: LabOptions): Promise<LabSessionOutcome> {
  const started = performance.now();
  const script = task.script!;
  const scriptTurns = positionalTurns(script).length;
  const workspace = createWorkspace(task.files);
  let completedAt: (() => void) | null = null;
  const completed = new Promise<void>((resolve) => (completedAt = resolve));
  let scriptCompleted = false;
  const last = positionalTurns(script).at(-1);
  const endless = last !== undefined && !('rule' in last) && last.repeat === true;
  let turnLimitAt: (() => void) | null = null;
  const turnLimit = new Promise<void>((resolve) => (turnLimitAt = resolve));
  let turnLimited = false;
  const turnCap = options.endlessTurnLimit ?? ENDLESS_TURN_LIMIT;
  // The workspace as each request arrives: a call's marker there shows it ran (src/mock/lab/side-effects.ts).
  const initial = new Set(Object.keys(task.files ?? {}));
  const atRequest = new Map<RecordedRequest, readonly string[]>();
  const registered = server.register(script, {
    wire: null,
    classifySide: true,
    prompt: task.prompt,
    recordBodies: true,
    toolMap: (tools) => toolMapper(tools, options.map, workspace),
    errorResult: errorAnswer,
    onRecord: (record) => {
      atRequest.set(record, gainedFiles(workspace, initial));
      const final = record.side === null && answeredWhole(record) && record.turn === scriptTurns && !(record.said?.content.some((b) => b.type === 'tool_use') ?? true);
      if (final && !scriptCompleted) {
        scriptCompleted = true;
        completedAt?.();
      }
      if (endless && record.side === null && (record.turn ?? 0) > turnCap && !turnLimited) {
        turnLimited = true;
        turnLimitAt?.();
      }
    },
  });
  const place = { baseURLs: registered.baseURLs, prompt: task.prompt, workspace, task: task.id, cwd: options.cwd ?? process.cwd() };
  const [program, ...args] = fillCommand(options.command, place);
  const child = spawnTree(program as string, args, { cwd: workspace, env: labEnv(options.env, place) });
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      timedOut = true;
      resolve();
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  });
  const grace = completed.then(() => new Promise<void>((resolve) => setTimeout(resolve, options.graceMs ?? DEFAULT_GRACE_MS)));
  // One listener per session on the caller's signal, removed when the session ends (they would pile up over a run).
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    if (options.signal?.aborted) resolve();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
  let exit: ProcessEnd;
  let stoppedAt = 0;
  // Whether the turn limit had been passed when the wait ended (a request during the stop does not count).
  let limitHit = false;
  try {
    await Promise.race([child.ended, timeout, grace, aborted, turnLimit]);
  } finally {
    clearTimeout(timer);
    stoppedAt = performance.now();
    limitHit = turnLimited;
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    // Stop the whole tree, whatever ended the wait (a harness that exited may have left children).
    exit = await child.stop();
    registered.close();
  }
  if (options.signal?.aborted) timedOut = true;
  // A harness still running at the timeout after the script completed was stopped by the lab, not timed out.
  if (scriptCompleted) timedOut = false;
  // The turn limit came first: the lab stopped it there, not at its --timeout.
  if (limitHit && !options.signal?.aborted) timedOut = false;

  const atEnd = gainedFiles(workspace, initial);
  const view = sessionView(registered.requests, { exitCode: exit.code, timedOut, scriptCompleted, stoppedAt, ...(limitHit ? { turnLimit: turnCap } : {}) }, { files: task.files ?? {}, endless, workspace: { workspace, atRequest, atEnd } });
  registered.requests.forEach((r, seq) => options.onRequestRecord?.(requestLine(sessionId, task.id, seq, r, started, atRequest.get(r) ?? [])));
  const sink = new CollectingSink(run.sink);
  const session = run.session(sessionId, task.id, sink);
  session.emit('session_start', {
    scenario: task.scenario ?? null,
    repeat,
    // The provider's side cannot see the harness's defenses, permissions or deferred tools: neutral values.
    defenses_armed: [],
    tools: (view.exchanges.find((e) => e.transcript && e.transcript.tools.length > 0)?.transcript?.tools ?? []).map((t) => t.name).filter((n) => /^[A-Za-z0-9_.-]{1,128}$/.test(n)),
    deferred_tools: [],
    permission_mode: 'default',
    headless: true,
  });
  const totals = emitProviderSide(view, session);
  const stop = labStop(view, timedOut || limitHit, scriptCompleted);
  const tallies = runChecks(view);
  // The lab never sees the harness's final answer, so answer expectations cannot be checked here.
  const { answer: _answer, ...checkable } = task.expect;
  const expectations = evaluateExpectations({ ...checkable, stop: task.expect.stop ?? 'end_turn' }, { finalText: '', stop, workspace, events: sink.collected as unknown as EventRecord[] });
  for (const e of expectations) session.expectation(e.id, e.ok, e.detail);
  emitConformance(session, tallies);
  const errors = tallies.some((t) => t.violations.length > 0 && CHECKS[t.check].severity === 'error');
  const outcome: SessionOutcome = exit.spawnError !== undefined ? 'error' : timedOut ? 'aborted' : !errors && expectations.every((e) => e.ok) ? 'passed' : 'failed';
  const durationMs = Math.round(performance.now() - started);
  session.emit('session_end', { outcome, stop, turns: totals.turns, ...totals.usage, duration_ms: durationMs });
  if (!options.keepWorkspaces) removeWorkspace(workspace);
  const prefix = prefixStats(view);
  return {
    task,
    repeat,
    sessionId,
    outcome,
    stop,
    turns: totals.turns,
    scriptTurns,
    durationMs,
    exit,
    timedOut,
    turnLimit: limitHit ? turnCap : null,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    scriptCompleted,
    tallies,
    expectations,
    wires: [...new Set(view.exchanges.map((e) => e.record.wire))],
    sideRequests: view.side.length,
    sideReasons: view.side.reduce<Record<string, number>>((n, r) => ({ ...n, [r.side ?? 'other']: (n[r.side ?? 'other'] ?? 0) + 1 }), {}),
    laterRequests: prefix.later,
    prefixHits: prefix.hits,
    unmapped: unmappedTools(task, view),
    shellMapped: shellTools(task, view, options.map),
    workspaceGained: atEnd,
    output: child.tail(),
    ...(options.keepWorkspaces ? { workspace } : {}),
  };
}

export async function runLab(options: LabOptions): Promise<LabSummary> {
  const started = performance.now();
  const unscripted = options.tasks.filter((t) => t.script === undefined);
  if (unscripted.length > 0) throw new Error(`the lab plays a task's script, and ${unscripted.map((t) => t.id).join(', ')} has none`);
  const runId = options.runId ?? newRunId();
  const run = new RunEmitter(options.sink, runId);
  const server = await startLoopbackServer();
  options.onListening?.(server.origin);
  const repeat = Math.max(1, options.repeat ?? 1);
  run.emit('run_start', {
    suite: [...new Set(options.tasks.map((t) => t.suite))].join(',').slice(0, 512),
    provider: 'lab',
    model: redact(options.command.join(' ')).slice(0, 128),
    faultline_version: FAULTLINE_VERSION,
    node_version: process.version,
    config_hash: createHash('sha256').update(JSON.stringify([options.command, options.tasks.map((t) => ({ ...t, file: undefined }))])).digest('hex').slice(0, 16),
    tasks: options.tasks.length,
  });
  const sessions: LabSessionOutcome[] = [];
  const total = options.tasks.length * repeat;
  try {
    for (const [index, task] of options.tasks.entries()) {
      for (let r = 0; r < repeat && !options.signal?.aborted; r++) {
        options.onSessionStart?.(task, r);
        const outcome = await runSession(server, run, task, r, repeat === 1 ? `${runId}.${index}` : `${runId}.${index}.${r}`, options);
        sessions.push(outcome);
        options.onSessionEnd?.(outcome, sessions.length, total);
      }
    }
  } finally {
    await server.close();
  }
  const count = (o: SessionOutcome) => sessions.filter((s) => s.outcome === o).length;
  const durationMs = Math.round(performance.now() - started);
  run.emit('run_end', { sessions: sessions.length, passed: count('passed'), failed: count('failed'), errored: count('error'), aborted: count('aborted'), duration_ms: durationMs });
  options.sink.flush();
  return { runId, origin: server.origin, sessions, durationMs };
}
