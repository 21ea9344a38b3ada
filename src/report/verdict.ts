/**
 * The verdict every renderer leads with: how many problems, every finding,
 * then one line of totals per area the trace has (sessions, expectations,
 * tools, defenses, permissions, model calls, MCP servers, the lab). It says
 * what is wrong before any table does.
 */
import type { Row } from '../analysis/duck.js';
import { findSection, type Analysis } from '../analysis/report-model.js';
import { findings, reconciliation, untargeted, type Finding } from './findings.js';
import { formatCell, type Flag } from './format.js';
import { plural } from './plural.js';
import { triageLevel } from './triage.js';

export interface Fact {
  label: string;
  text: string;
  flag: Flag;
}

export interface Verdict {
  errors: number;
  warnings: number;
  /** `2 problems, 1 warning` or `nothing wrong found`. */
  headline: string;
  findings: Finding[];
  facts: Fact[];
}

const n = (v: unknown): number => (typeof v === 'number' ? v : 0);
const pct = (v: unknown): string => formatCell('rate', typeof v === 'number' ? v : null);

function sessionsFact(analysis: Analysis): Fact | null {
  const s = findSection(analysis, 'session_summary')?.rows[0];
  if (!s || n(s.sessions_started) === 0) return null;
  const outcomes = findSection(analysis, 'session_outcomes')?.rows ?? [];
  const others = outcomes.filter((r) => r.outcome !== 'passed' && n(r.sessions) > 0).map((r) => `${n(r.sessions)} ${String(r.outcome)}`);
  const cut = n(s.sessions_without_end);
  const text = [`${n(s.sessions_ended)} ended: ${n(s.passed)} passed (${pct(s.pass_rate_of_ended_sessions)})`, ...others].join(', ') + (cut > 0 ? `; ${cut} cut short` : '');
  return { label: 'sessions', text, flag: others.length > 0 ? 'bad' : cut > 0 ? 'warn' : null };
}

function expectationsFact(analysis: Analysis): Fact | null {
  const e = findSection(analysis, 'expectation_summary')?.rows[0];
  if (!e || n(e.checked) === 0) return null;
  const failed = n(e.failed);
  const text = `${n(e.checked)} checked, ${failed} failed` + (failed > 0 ? ` in ${plural(n(e.sessions_with_failed_check), 'session')}` : '');
  return { label: 'expectations', text, flag: failed > 0 ? 'bad' : null };
}

function toolsFact(analysis: Analysis): Fact | null {
  const all = findSection(analysis, 'tool_funnel')?.rows.find((r) => r.tool === '(all tools)');
  if (!all) return null;
  const kinds = (findSection(analysis, 'failure_kind_totals')?.rows ?? []).filter((r) => r.phase === 'execution' && n(r.failures) > 0);
  const inExecution = kinds.length > 0 ? ` (${kinds.map((r) => `${String(r.failure_kind)} ${n(r.failures)}`).join(', ')})` : '';
  const text = `${plural(n(all.calls), 'call')}: ${n(all.successes)} succeeded, ${n(all.failures_pre_execution)} failed before execution, ${n(all.failures_execution)} in execution${inExecution}${n(all.cut_short) > 0 ? `, ${n(all.cut_short)} cut short (in flight when the run was killed)` : ''}, ${n(all.lost)} lost`;
  return { label: 'tools', text, flag: n(all.lost) !== 0 ? 'bad' : null };
}

function defensesFact(analysis: Analysis): Fact | null {
  const rows = findSection(analysis, 'defenses')?.rows ?? [];
  if (rows.length === 0) return null;
  const counts = new Map<string, { n: number; rank: number }>();
  for (const r of rows) {
    const level = triageLevel(r.triage, r);
    // a shipped defense no task targets asks for a scenario, not a fix: a warning, as its finding is
    const rank = level === 'error' && !untargeted(r) ? 0 : level !== null ? 1 : 2;
    const seen = counts.get(String(r.triage));
    counts.set(String(r.triage), { n: (seen?.n ?? 0) + 1, rank: Math.min(seen?.rank ?? 2, rank) });
  }
  const classes = [...counts].sort((a, b) => a[1].rank - b[1].rank).map(([t, c]) => [t, c.n, c.rank] as const);
  const worst = Math.min(...classes.map(([, , rank]) => rank));
  return { label: 'defenses', text: classes.map(([t, k]) => `${k} ${t}`).join(', '), flag: worst === 0 ? 'bad' : worst === 1 ? 'warn' : null };
}

function permissionsFact(analysis: Analysis): Fact | null {
  const p = findSection(analysis, 'permission_summary')?.rows[0];
  if (!p || n(p.decisions) === 0) return null;
  return { label: 'permissions', text: `${plural(n(p.decisions), 'decision')}: ${n(p.denied)} denied, ${n(p.prompted)} needed a prompt`, flag: null };
}

function modelFact(analysis: Analysis): Fact | null {
  const m = findSection(analysis, 'model_summary')?.rows[0];
  if (!m || n(m.requests) === 0) return null;
  const failClosed = (findSection(analysis, 'stop_classes')?.rows ?? []).filter((r) => (r.stop_class === 'null' || r.stop_class === 'unknown') && n(r.responses) > 0);
  const stops = failClosed.length > 0 ? `; stop class ${failClosed.map((r) => `${String(r.stop_class)} ${n(r.responses)}`).join(', ')} (failed closed)` : '';
  return { label: 'model calls', text: `${plural(n(m.requests), 'request')}, ${plural(n(m.errors), 'error')} (${n(m.errors_retried)} retried)${stops}`, flag: null };
}

function mcpFact(analysis: Analysis): Fact | null {
  const rows = findSection(analysis, 'mcp_servers')?.rows ?? [];
  if (rows.length === 0) return null;
  const never = rows.filter((r: Row) => n(r.sessions_never_connected) > 0).map((r) => String(r.server));
  const text = `${plural(rows.length, 'server')}` + (never.length > 0 ? `, ${never.length} never connected in some session: ${never.join(', ')}` : ', every one connected');
  return { label: 'MCP', text, flag: never.length > 0 ? 'warn' : null };
}

function labFact(analysis: Analysis): Fact | null {
  const c = findSection(analysis, 'conformance_summary')?.rows[0];
  if (!c || n(c.lab_sessions) === 0) return null;
  const errors = n(c.error_violations);
  const warnings = n(c.warning_violations);
  return { label: 'lab', text: `${plural(n(c.lab_sessions), 'lab session')}: ${plural(errors, 'error violation')}, ${plural(warnings, 'warning violation')}`, flag: errors > 0 ? 'bad' : warnings > 0 ? 'warn' : null };
}

export function verdict(analysis: Analysis): Verdict {
  const found = findings(analysis);
  const errors = found.filter((f) => f.level === 'error').length;
  const warnings = found.length - errors;
  const headline = found.length === 0 ? 'nothing wrong found' : [errors > 0 ? plural(errors, 'problem') : '', warnings > 0 ? plural(warnings, 'warning') : ''].filter(Boolean).join(', ');
  const facts = [sessionsFact, expectationsFact, toolsFact, defensesFact, permissionsFact, modelFact, mcpFact, labFact]
    .map((fact) => fact(analysis))
    .filter((f): f is Fact => f !== null);
  facts.push({ label: 'lines', text: reconciliation(analysis), flag: analysis.load.quarantined.length > 0 ? 'warn' : null });
  return { errors, warnings, headline, findings: found, facts };
}
