/**
 * The view of one session in the HTML report: who it was (task, run,
 * outcome, stop, turns, time), its timeline (session-svg.ts), then its tool
 * calls, marks, permission decisions and expectations as tables. Report rows
 * that name a session link here by sessionAnchor. No script: the timeline's
 * details are SVG <title>s, and every string from the trace is escaped.
 */
import { createHash } from 'node:crypto';
import type { Row } from '../analysis/duck.js';
import type { SessionView } from '../analysis/session-view.js';
import type { Section } from '../analysis/report-model.js';
import { escapeHtml, sectionHtml } from './html-parts.js';

/** The element id of a session's view: a hash of its key, so any session id (from the trace: untrusted) makes a safe, unique id. */
export function sessionAnchor(runId: string, sessionId: string): string {
  return `session-${createHash('sha256').update(`${runId}\0${sessionId}`).digest('hex').slice(0, 16)}`;
}

/** The anchors report rows link to: by session id, and by task id (its first session). */
export function sessionLinks(views: readonly SessionView[]): { session: Map<string, string>; task: Map<string, string> } {
  const session = new Map<string, string>();
  const task = new Map<string, string>();
  for (const v of views) {
    const id = sessionAnchor(v.run_id, v.session_id);
    if (!session.has(v.session_id)) session.set(v.session_id, id);
    const t = v.facts.task_id;
    if (typeof t === 'string' && !task.has(t)) task.set(t, id);
  }
  return { session, task };
}

const text = (v: unknown): string => (v === null || v === undefined ? '—' : String(v));

function table(id: string, title: string, columns: string[], rows: Row[]): string {
  const section: Section = { id, title, columns, rows, chartOnly: false };
  return `<h4>${escapeHtml(title)}</h4>${sectionHtml(section)}`;
}

const LEGEND = [
  ['model', 'model call'],
  ['ok', 'tool call'],
  ['failed', 'failed'],
  ['timeout', 'timeout'],
  ['skipped', 'cascade / aborted'],
  ['cut_short', 'in flight when the run was killed'],
  ['retry', 'retry'],
  ['defense', 'defense trigger'],
  ['reminder', 'reminder'],
] as const;

export function sessionHtml(view: SessionView, timeline: string): string {
  const f = view.facts;
  const facts = [
    `run <code>${escapeHtml(view.run_id)}</code>`,
    `outcome <strong class="${f.outcome === 'passed' ? 'ok' : 'bad'}">${escapeHtml(text(f.outcome))}</strong>`,
    `stop ${escapeHtml(text(f.stop))}`,
    `${escapeHtml(text(f.turns))} turns`,
    `${escapeHtml(text(f.duration_ms))} ms`,
    `${view.calls.length} tool calls`,
    f.defenses_armed ? `armed: ${escapeHtml(String(f.defenses_armed))}` : 'no defense armed',
  ];
  const failed = view.expectations.filter((e) => e.ok === false).length;
  const v = (x: Row[string] | undefined): Row[string] => x ?? null;
  const calls: Row[] = view.calls.map((c) => ({ turn: v(c.turn), batch: v(c.batch), tool: c.requested_tool ? `${text(c.tool)} (${text(c.requested_tool)})` : v(c.tool), start_ms: v(c.start_ms), duration_ms: v(c.duration_ms), result: v(c.result), failure_kind: v(c.failure_kind), error_code: v(c.error_code), permission: c.decision ? `${text(c.decision)} (${text(c.decision_source)})` : null, tool_use_id: v(c.tool_use_id) }));
  const legend = LEGEND.map(([cls, label]) => `<span class="key ${cls}">${label}</span>`).join(' ');
  return [
    `<section class="session" id="${sessionAnchor(view.run_id, view.session_id)}">`,
    `<h3>Session <code>${escapeHtml(view.session_id)}</code> · task <code>${escapeHtml(text(f.task_id))}</code></h3>`,
    `<p class="session-facts">${facts.join(' · ')}</p>`,
    `<figure class="timeline-figure">${timeline}<figcaption>${legend} · hover a bar or mark for its details</figcaption></figure>`,
    failed > 0 ? table('session_failed', `Failed expectations (${failed})`, ['id', 'detail'], view.expectations.filter((e) => e.ok === false)) : '',
    table('session_calls', 'Tool calls (ms from the session start)', ['turn', 'batch', 'tool', 'start_ms', 'duration_ms', 'result', 'failure_kind', 'error_code', 'permission', 'tool_use_id'], calls),
    table('session_marks', 'Marks: retries, model errors, defense triggers, reminders, hooks, conformance', ['at_ms', 'turn', 'kind', 'label', 'detail'], view.marks),
    table('session_permissions', 'Permission decisions', ['at_ms', 'turn', 'tool', 'decision', 'source', 'needed_prompt', 'rule_id', 'tool_use_id'], view.permissions),
    table('session_expectations', 'Expectations', ['id', 'ok', 'detail'], view.expectations),
    view.conversation ? conversationHtml(view.conversation) : '',
    `<p class="back"><a href="#contents">back to the contents</a></p>`,
    `</section>`,
  ].join('\n');
}

/** The recorded conversation, a block a list item; folded, since it can be long. */
function conversationHtml(parts: NonNullable<SessionView['conversation']>): string {
  const items = parts.map((p) => `<li class="${p.role === 'assistant' ? 'assistant' : 'user'}"><span class="who">${escapeHtml(`${p.role}${p.kind === 'tool_use' ? ' → tool call' : p.kind === 'tool_result' ? ` ← tool result${p.error ? ' (error)' : ''}` : ''}`)}</span><pre>${escapeHtml(p.text)}</pre></li>`);
  return `<details class="conversation"><summary>Conversation (${parts.length} blocks, from the recording, secrets redacted)</summary><ol>${items.join('')}</ol></details>`;
}

export const SESSION_CSS = `
.conversation ol{list-style:none;padding-left:0}.conversation li{margin:.3em 0;padding:.2em .6em;border-left:3px solid #8aa4c8}
.conversation li.assistant{border-left-color:#2f855a}.conversation .who{font-size:.85em;color:#555}
.conversation pre{white-space:pre-wrap;margin:.1em 0;font-size:.9em}
.session{border-top:2px solid #ccc;margin-top:1.6em;padding-top:.4em}
.session-facts .ok{color:#1a7f37}.session-facts .bad{color:#b42318}
.timeline-figure{margin:.6em 0;overflow-x:auto}
svg.timeline{max-width:100%;height:auto;font:11px system-ui,sans-serif}
svg.timeline .lane-bg{fill:#fafafa;stroke:#eee}
svg.timeline .lane-label{fill:#555}
svg.timeline .tick line{stroke:#e4e4e4}svg.timeline .tick text{fill:#777;text-anchor:middle}
svg.timeline .bar.model{fill:#8aa4c8}
svg.timeline .call rect{stroke:#fff;stroke-width:.5}
svg.timeline .call text{fill:#fff;font-weight:600}
svg.timeline .call.ok rect{fill:#2f855a}svg.timeline .call.failed rect{fill:#c53030}
svg.timeline .call.timeout rect{fill:#dd6b20}svg.timeline .call.skipped rect{fill:#a0aec0}svg.timeline .call.lost rect{fill:#000}svg.timeline .call.cut_short rect{fill:#a0aec0;stroke:#000;stroke-dasharray:2 2}
svg.timeline .mark.retry,svg.timeline .mark.model_error{fill:#dd6b20}
svg.timeline .mark.defense{fill:#c53030}svg.timeline .mark.reminder{fill:#d69e2e}
svg.timeline .mark.hook,svg.timeline .mark.conformance{fill:#6b46c1}
svg.timeline .mark-line{stroke-dasharray:3 3;stroke:#bbb}
svg.timeline .mark-line.defense{stroke:#c53030}svg.timeline .mark-line.retry{stroke:#dd6b20}
.key{display:inline-block;padding:0 .4em;border-radius:3px;color:#fff;font-size:.85em}
.key.model{background:#8aa4c8}.key.ok{background:#2f855a}.key.failed{background:#c53030}.key.timeout{background:#dd6b20}
.key.skipped{background:#a0aec0}.key.cut_short{background:#a0aec0;color:#000;border:1px dashed #000}.key.retry{background:#dd6b20}.key.defense{background:#c53030}.key.reminder{background:#d69e2e}
`;
