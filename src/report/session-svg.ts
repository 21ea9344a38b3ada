/**
 * A session's timeline as inline SVG: a row for the model's calls, a lane
 * per tool call running at the same time, a row of marks (retries, model
 * errors, defense triggers, reminders, hooks that acted, conformance
 * violations), and a time axis. Each bar and mark carries a <title> with
 * its details, so hovering explains it with no script. Every string from
 * the trace goes through escapeHtml.
 */
import type { Row } from '../analysis/duck.js';
import type { SessionView } from '../analysis/session-view.js';
import { escapeHtml } from './html-parts.js';
import { callClass, layLanes, sessionSpan, spanOf } from './session-lanes.js';

const WIDTH = 960;
const GUTTER = 84;
const ROW = 24;
const BAR = 16;
const AXIS = 26;
/** Narrower bars than this are drawn this wide, so a 0 ms step is still visible. */
const MIN_BAR = 3;

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const ms = (v: number): string => `${Math.round(v).toLocaleString('en-US')} ms`;

/** Round tick steps: 1, 2, 5 times a power of ten, about six ticks over the span. */
function ticks(span: number): number[] {
  const raw = span / 6;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let t = 0; t <= span + 1e-9; t += step) out.push(t);
  return out;
}

function callTitle(row: Row, start: number, end: number): string {
  const name = row.requested_tool ? `${text(row.tool)} (asked for ${text(row.requested_tool)})` : text(row.tool);
  const result = row.result === 'failure' ? `failed: ${text(row.failure_kind)}${row.error_code ? ` (${text(row.error_code)})` : ''}` : text(row.result);
  const decision = row.decision ? ` · permission ${text(row.decision)} (${text(row.decision_source)})` : '';
  return `${name} · turn ${text(row.turn)} · batch ${text(row.batch)} · ${ms(start)} → ${ms(end)} · ${result}${decision} · ${text(row.tool_use_id)}`;
}

const MARK_SHAPE: Record<string, (x: number, y: number) => string> = {
  retry: (x, y) => `M${x - 6} ${y - 6}h12l-6 11z`,
  model_error: (x, y) => `M${x - 6} ${y - 6}h12l-6 11z`,
  defense: (x, y) => `M${x} ${y - 7}l7 7l-7 7l-7 -7z`,
  reminder: (x, y) => `M${x} ${y - 7}l7 7l-7 7l-7 -7z`,
  hook: (x, y) => `M${x - 5} ${y - 5}h10v10h-10z`,
  conformance: (x, y) => `M${x - 5} ${y - 5}h10v10h-10z`,
};

export function sessionSvg(view: SessionView): string {
  const span = sessionSpan(view);
  const { calls, lanes } = layLanes(view.calls);
  const rows = ['model', ...Array.from({ length: Math.max(lanes, 1) }, (_, i) => `lane ${i + 1}`), 'marks'];
  const height = rows.length * ROW + AXIS;
  const x = (t: number) => GUTTER + (Math.max(0, Math.min(t, span)) / span) * (WIDTH - GUTTER - 8);
  const y = (r: number) => r * ROW + (ROW - BAR) / 2;
  const out: string[] = [
    `<svg class="timeline" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="session timeline">`,
  ];
  rows.forEach((label, r) => {
    out.push(`<g class="lane" data-lane="${label}"><rect class="lane-bg" x="${GUTTER}" y="${r * ROW}" width="${WIDTH - GUTTER}" height="${ROW}"/><text class="lane-label" x="4" y="${r * ROW + ROW / 2 + 4}">${label}</text></g>`);
  });
  for (const t of ticks(span)) {
    out.push(`<g class="tick"><line x1="${x(t)}" x2="${x(t)}" y1="0" y2="${rows.length * ROW}"/><text x="${x(t)}" y="${rows.length * ROW + 16}">${escapeHtml(ms(t))}</text></g>`);
  }
  for (const m of view.model) {
    const s = spanOf(m);
    if (!s) continue;
    const w = Math.max(MIN_BAR, x(s.end) - x(s.start));
    out.push(`<rect class="bar model" x="${x(s.start)}" y="${y(0)}" width="${w}" height="${BAR}"><title>${escapeHtml(`model · turn ${text(m.turn)} · ${ms(s.start)} → ${ms(s.end)} · stop ${text(m.stop_class)} · ${text(m.tool_use_count)} tool calls`)}</title></rect>`);
  }
  for (const c of calls) {
    const w = Math.max(MIN_BAR, x(c.end) - x(c.start));
    const cls = callClass(c.row);
    out.push(`<g class="bar call ${cls}" data-lane="${c.lane + 1}" data-turn="${escapeHtml(text(c.row.turn))}"><rect x="${x(c.start)}" y="${y(c.lane + 1)}" width="${w}" height="${BAR}"/><title>${escapeHtml(callTitle(c.row, c.start, c.end))}</title>`);
    if (w > 36) out.push(`<text x="${x(c.start) + 3}" y="${y(c.lane + 1) + BAR - 4}">${escapeHtml(text(c.row.tool).slice(0, Math.floor(w / 7)))}</text>`);
    out.push(`</g>`);
  }
  const markRow = rows.length - 1;
  for (const m of view.marks) {
    const at = typeof m.at_ms === 'number' ? m.at_ms : 0;
    const kind = text(m.kind);
    const shape = MARK_SHAPE[kind] ?? MARK_SHAPE.hook!;
    const title = `${kind} · ${text(m.label)} · turn ${text(m.turn)} · at ${ms(at)}${m.detail ? ` · ${text(m.detail)}` : ''}`;
    out.push(`<path class="mark ${kind in MARK_SHAPE ? kind : 'hook'}" d="${shape(x(at), markRow * ROW + ROW / 2)}"><title>${escapeHtml(title)}</title></path>`);
    // the mark's time across every lane, so it reads against the calls it followed
    out.push(`<line class="mark-line ${kind in MARK_SHAPE ? kind : 'hook'}" x1="${x(at)}" x2="${x(at)}" y1="0" y2="${markRow * ROW}"/>`);
  }
  out.push(`</svg>`);
  return out.join('');
}
