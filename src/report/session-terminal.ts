/**
 * `faultline report --session <id>` in the terminal: the session's facts,
 * its timeline drawn in characters (a row for the model, a lane per tool
 * call running at the same time, a row of marks), then its failed
 * expectations, tool calls, marks, permission decisions and expectations.
 * Trace text has its control characters escaped (safeText).
 */
import { createColors } from 'picocolors';
import type { Row } from '../analysis/duck.js';
import type { SessionView } from '../analysis/session-view.js';
import { wrapText } from './format.js';
import { safeText } from './safe-text.js';
import { conversationLines } from './session-conversation.js';
import { callClass, layLanes, sessionSpan, spanOf } from './session-lanes.js';
import { renderSectionTable, TERMINAL_WIDTH } from './terminal.js';

const GUTTER = 9;
const text = (v: unknown): string => (v === null || v === undefined ? '—' : safeText(String(v)));
const BAR_CHAR: Record<ReturnType<typeof callClass>, string> = { ok: '█', failed: 'X', timeout: 'T', skipped: '·', cut_short: '~', lost: '?' };
const MARK_CHAR: Record<string, string> = { retry: 'R', model_error: 'E', defense: 'D', reminder: 'r', hook: 'H', conformance: 'C' };

function timeline(view: SessionView, width: number): string[] {
  const span = sessionSpan(view);
  const cols = Math.max(20, width - GUTTER - 2);
  const col = (t: number) => Math.min(cols - 1, Math.max(0, Math.floor((t / span) * cols)));
  const draw = (line: string[], start: number, end: number, ch: string, label = '') => {
    const a = col(start);
    const b = Math.max(a, col(end));
    for (let i = a; i <= b; i++) line[i] = ch;
    // the tool's name inside its bar when it fits
    if (label && b - a + 1 >= label.length + 2) for (let i = 0; i < label.length; i++) line[a + 1 + i] = label[i] ?? ch;
  };
  const model = Array<string>(cols).fill(' ');
  for (const m of view.model) {
    const s = spanOf(m);
    if (s) draw(model, s.start, s.end, '▒');
  }
  const { calls, lanes } = layLanes(view.calls);
  const laneLines = Array.from({ length: lanes }, () => Array<string>(cols).fill(' '));
  for (const c of calls) draw(laneLines[c.lane] ?? [], c.start, c.end, BAR_CHAR[callClass(c.row)], safeText(String(c.row.tool ?? '')));
  const marks = Array<string>(cols).fill(' ');
  for (const m of view.marks) marks[col(typeof m.at_ms === 'number' ? m.at_ms : 0)] = MARK_CHAR[String(m.kind)] ?? '*';
  const row = (label: string, line: string[]) => `  ${label.padEnd(GUTTER - 2)}│${line.join('').trimEnd()}`;
  return [
    `Timeline: 0 to ${Math.round(span)} ms, one column ≈ ${(span / cols).toFixed(span / cols >= 10 ? 0 : 1)} ms`,
    row('model', model),
    ...laneLines.map((l, i) => row(`lane ${i + 1}`, l)),
    row('marks', marks),
    `  ${''.padEnd(GUTTER - 2)}└${'─'.repeat(cols)}`,
    `  bars: ▒ model call · █ tool call · X failed · T timeout · · cascade or aborted · ? no result`,
    `  marks: R retry · E model error · D defense trigger · r reminder · H hook · C conformance`,
  ];
}

function table(title: string, columns: string[], rows: Row[], color: boolean, width: number): string[] {
  if (rows.length === 0) return [`${title}: none`, ''];
  return [title, renderSectionTable({ columns, rows }, color, width), ''];
}

export function renderSessionTerminal(views: readonly SessionView[], options: { color: boolean; width?: number }): string {
  const width = options.width ?? TERMINAL_WIDTH;
  const c = createColors(options.color);
  const out: string[] = [];
  for (const view of views) {
    const f = view.facts;
    const outcome = f.outcome === 'passed' ? c.green(text(f.outcome)) : c.red(c.bold(text(f.outcome)));
    out.push(`${c.bold('Session')} ${text(view.session_id)} · task ${text(f.task_id)} · run ${text(view.run_id)}`);
    out.push(`  ${outcome} · stop ${text(f.stop)} · ${text(f.turns)} turns · ${text(f.duration_ms)} ms · ${view.calls.length} tool calls`);
    out.push(...wrapText(`armed: ${f.defenses_armed ? text(f.defenses_armed) : 'no defense'}`, width - 4, ' ').map((l, i) => (i === 0 ? '  ' : '    ') + l), '');
    out.push(...timeline(view, width), '');
    const failed = view.expectations.filter((e) => e.ok === false);
    if (failed.length > 0) out.push(...table(c.red(c.bold(`Failed expectations (${failed.length})`)), ['id', 'detail'], failed, options.color, width));
    const calls = view.calls.map((r) => ({ ...r, permission: r.decision ? `${text(r.decision)} (${text(r.decision_source)})` : null }));
    out.push(...table('Tool calls (ms from the session start)', ['turn', 'tool', 'start_ms', 'duration_ms', 'result', 'failure_kind', 'error_code', 'permission'], calls, options.color, width));
    out.push(...table('Marks', ['at_ms', 'turn', 'kind', 'label', 'detail'], view.marks, options.color, width));
    out.push(...table('Permission decisions', ['at_ms', 'turn', 'tool', 'decision', 'source', 'needed_prompt', 'rule_id'], view.permissions, options.color, width));
    out.push(...table('Expectations', ['id', 'ok', 'detail'], view.expectations, options.color, width));
    if (view.conversation) out.push(c.bold('Conversation (from the recording, secrets redacted)'), ...conversationLines(view.conversation, safeText), '');
  }
  return out.join('\n');
}
