/**
 * What the lab concludes about one session from its records: how it ended
 * (turn-stop attribution from the provider's side), its prefix stability,
 * the script tools the harness had no tool for, the `conformance` events,
 * and each request as a raw JSON line.
 */
import type { SessionEmitter } from '../../events/emitter.js';
import type { TurnStop } from '../../events/labels.js';
import { redact, redactAndCap } from '../../events/redact.js';
import { CHECKS } from '../../mock/lab/catalog.js';
import type { CheckTally } from '../../mock/lab/check-result.js';
import { answeredWhole, type SessionView } from '../../mock/lab/session-view.js';
import { isGenericTool, shellMapped } from '../../mock/lab/tool-map.js';
import type { RecordedRequest } from '../../mock/session.js';
import type { LoadedTask } from '../load-suite.js';

/** The turn-stop attribution seen from the provider's side: the script done, the lab's timeout, a model error, or the harness stopping on its own. */
export function labStop(view: SessionView, timedOut: boolean, completed: boolean): TurnStop {
  if (completed) return 'end_turn';
  if (timedOut) return 'aborted';
  const last = view.exchanges[view.exchanges.length - 1];
  if (last && !answeredWhole(last.record)) return 'model_error';
  // The harness ended on a turn cut off by max_tokens: it stopped there rather than letting the model retry.
  if (last?.record.said?.stopReason === 'max_tokens') return 'max_tokens';
  // A model that never stops: the harness stopped itself with calls pending, at its own turn cap.
  if (view.endless && last?.record.said?.content.some((b) => b.type === 'tool_use')) return 'max_turns';
  return 'harness_error';
}

export function prefixStats(view: SessionView): { later: number; hits: number } {
  const hashes = view.exchanges.filter((e) => e.transcript).map((e) => `${e.transcript!.system}\u0000${e.transcript!.toolsJson}`);
  let hits = 0;
  for (let i = 1; i < hashes.length; i++) if (hashes[i] === hashes[i - 1]) hits++;
  return { later: Math.max(0, hashes.length - 1), hits };
}

export function unmappedTools(task: LoadedTask, view: SessionView): string[] {
  const declared = new Set(view.exchanges.flatMap((e) => e.transcript?.tools.map((t) => t.name) ?? []));
  if (declared.size === 0) return [];
  const named = new Set((task.script ?? []).flatMap((t) => ('rule' in t ? t.rule.map((b) => b.then) : [t])).flatMap((r) => (r.tool_use ?? []).map((u) => u.name)));
  const issued = new Set([...view.issued.values()].map((c) => c.name));
  return [...named].filter((n) => isGenericTool(n) && issued.has(n) && !declared.has(n));
}

/** Generic script tools the harness has no tool for, whose calls the lab sent to its shell tool as commands. */
export function shellTools(task: LoadedTask, view: SessionView, explicit: Readonly<Record<string, string>> = {}): string[] {
  const declared = [...new Set(view.exchanges.flatMap((e) => e.transcript?.tools.map((t) => t.name) ?? []))];
  const named = new Set((task.script ?? []).flatMap((t) => ('rule' in t ? t.rule.map((b) => b.then) : [t])).flatMap((r) => (r.tool_use ?? []).map((u) => u.name)));
  return declared.length === 0 ? [] : shellMapped(declared, [...named], explicit);
}

/** One recorded request as a JSON line: times in ms from the session's start, secrets out of headers and body. */
export function requestLine(sessionId: string, taskId: string, seq: number, r: RecordedRequest, started: number, workspaceGained: readonly string[] = []): string {
  return JSON.stringify({
    session_id: sessionId,
    task_id: taskId,
    seq,
    wire: r.wire,
    method: r.method,
    path: r.path,
    status: r.status,
    side: r.side,
    turn: r.turn,
    attempt: r.attempt,
    received_ms: Math.round(r.receivedAt - started),
    answered_ms: r.answeredAt === undefined ? null : Math.round(r.answeredAt - started),
    fault: r.fault,
    rejected: r.rejected,
    // The files the harness had added to the workspace when this request arrived (what its calls left).
    workspace_gained: workspaceGained,
    headers: r.headers ?? {},
    body: redact(r.bodyText ?? ''),
  });
}

export function emitConformance(session: SessionEmitter, tallies: CheckTally[]): void {
  for (const tally of tallies) {
    const { severity, source } = CHECKS[tally.check];
    for (const v of tally.violations) {
      session.emit('conformance', { turn: v.turn, check_id: v.check, severity, source, bytes: v.bytes, tool_use_id: v.toolUseId?.slice(0, 128) ?? null, detail: redactAndCap(v.detail, 1024) });
    }
  }
  for (const tally of tallies) {
    session.emit('conformance_stats', { check_id: tally.check, severity: CHECKS[tally.check].severity, evaluated: tally.evaluated, violations: tally.violations.length });
  }
}
