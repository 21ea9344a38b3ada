/**
 * The lab's one-screen verdict for a harness: a line per session, a line per
 * check (violated, passed with how much it looked at, or not exercised), the
 * prompt-cache prefix hit rate and schema bloat, and the verdict. Trace text
 * (details) is untrusted: control characters are escaped.
 */
import { createColors } from 'picocolors';
import type { ConformanceCheck } from '../../events/labels.js';
import { CHECK_IDS, CHECKS } from '../../mock/lab/catalog.js';
import { plural } from '../../report/plural.js';
import type { LabSessionOutcome, LabSummary } from './run-lab.js';

const safe = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const pct = (n: number, d: number) => (d === 0 ? '-' : `${Math.round((100 * n) / d)}%`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function sessionLine(s: LabSessionOutcome, color: boolean): string {
  const c = createColors(color);
  const mark = s.outcome === 'passed' ? c.green('✓') : c.red('✗');
  const fired = s.tallies.filter((t) => t.violations.length > 0).map((t) => t.check);
  const how = s.exit.spawnError ? `could not start: ${s.exit.spawnError}` : s.timedOut ? `stopped by the lab at its --timeout (${seconds(s.timeoutMs)}) before the harness finished` : s.turnLimit !== null ? `stopped by the lab after ${s.turnLimit} turns of a model that never stops` : s.scriptCompleted ? 'script done' : `stopped (exit ${s.exit.code ?? s.exit.signal})`;
  const repeat = s.repeat > 0 ? ` #${s.repeat + 1}` : '';
  return `  ${mark} ${safe(s.task.id)}${repeat}  ${s.stop}  ${s.turns}/${s.scriptTurns} turns  ${how}  ${seconds(s.durationMs)}${fired.length > 0 ? `  ${c.red(fired.join(', '))}` : ''}\n`;
}

interface CheckRow {
  check: ConformanceCheck;
  evaluated: number;
  violations: number;
  sessions: number;
  first: string | null;
}

function checkRows(sessions: readonly LabSessionOutcome[]): CheckRow[] {
  return CHECK_IDS.map((check) => {
    const tallies = sessions.map((s) => s.tallies.find((t) => t.check === check)!);
    const violations = tallies.flatMap((t) => t.violations);
    return {
      check,
      evaluated: tallies.reduce((n, t) => n + t.evaluated, 0),
      violations: violations.length,
      sessions: tallies.filter((t) => t.violations.length > 0).length,
      first: violations[0]?.detail ?? null,
    };
  });
}

export function verdictText(summary: LabSummary, command: readonly string[], color: boolean): string {
  const c = createColors(color);
  const { sessions } = summary;
  const out: string[] = [];
  const wires = [...new Set(sessions.flatMap((s) => s.wires))].join(', ') || 'none';
  out.push(c.bold(`faultline lab · ${safe(command.join(' '))}`));
  out.push(`${plural(sessions.length, 'session')} · wires: ${wires} · ${seconds(summary.durationMs)} · 127.0.0.1 only`);
  out.push('');
  for (const s of sessions) out.push(sessionLine(s, color).trimEnd());
  out.push('');
  const rows = checkRows(sessions);
  const width = Math.max(...rows.map((r) => r.check.length));
  for (const row of rows) {
    const info = CHECKS[row.check];
    const name = row.check.padEnd(width);
    const severity = info.severity.padEnd(7);
    if (row.violations > 0) {
      const paint = info.severity === 'error' ? c.red : c.yellow;
      out.push(`  ${paint('✗')} ${name}  ${severity}  ${row.violations} in ${row.sessions}/${sessions.length} sessions: ${safe(row.first ?? '').slice(0, 160)} (${info.source})`);
    } else if (row.evaluated > 0) out.push(`  ${c.green('✓')} ${name}  ${severity}  passed (${row.evaluated} checked)`);
    else out.push(`  ${c.dim('·')} ${name}  ${severity}  not exercised`);
  }
  const later = sessions.reduce((n, s) => n + s.laterRequests, 0);
  const hits = sessions.reduce((n, s) => n + s.prefixHits, 0);
  const bloat = sessions.flatMap((s) => s.tallies.find((t) => t.check === 'undocumented_schema_keys')!.violations).reduce((n, v) => n + (v.bytes ?? 0), 0);
  const sides = sessions.reduce((n, s) => n + s.sideRequests, 0);
  out.push('');
  const history = sessions.map((s) => s.tallies.find((t) => t.check === 'history_rewritten')!);
  const compared = history.reduce((n, t) => n + t.evaluated, 0);
  const kept = compared - history.reduce((n, t) => n + t.violations.length, 0);
  const reasons = new Map<string, number>();
  for (const s of sessions) for (const [why, n] of Object.entries(s.sideReasons)) reasons.set(why, (reasons.get(why) ?? 0) + n);
  const byReason = [...reasons].map(([why, n]) => `${n} ${why}`).join(', ');
  out.push(`prompt cache: system + tools unchanged in ${hits}/${later} later requests (${pct(hits, later)}); earlier messages resent unchanged in ${kept}/${compared} (${pct(kept, compared)})`);
  out.push(`schema bloat: ${bloat} B · side requests (recorded apart, no turn taken): ${sides}${byReason ? ` (${byReason})` : ''}`);
  const shell = [...new Set(sessions.flatMap((s) => s.shellMapped))];
  if (shell.length > 0) out.push(`script tools the harness has no tool for, run through its shell tool as commands: ${shell.join(', ')}`);
  const unmapped = [...new Set(sessions.flatMap((s) => s.unmapped))];
  if (unmapped.length > 0) out.push(c.yellow(`script tools with no harness tool: ${unmapped.join(', ')} (name them with --map generic=name)`));
  for (const s of sessions.filter((x) => x.outcome !== 'passed' && (x.exit.code ?? 0) !== 0 && x.output.stderr.trim() !== '')) {
    out.push(c.dim(`${s.task.id} stderr (last lines):`));
    for (const line of s.output.stderr.trim().split('\n').slice(-5)) out.push(c.dim(`  ${safe(line).slice(0, 200)}`));
  }
  const errors = rows.filter((r) => r.violations > 0 && CHECKS[r.check].severity === 'error').reduce((n, r) => n + r.violations, 0);
  const warnings = rows.filter((r) => r.violations > 0 && CHECKS[r.check].severity === 'warning').reduce((n, r) => n + r.violations, 0);
  const failedExpectations = sessions.reduce((n, s) => n + s.expectations.filter((e) => !e.ok).length, 0);
  const pass = sessions.every((s) => s.outcome === 'passed');
  const why = [errors > 0 ? plural(errors, 'error-severity violation') : '', failedExpectations > 0 ? plural(failedExpectations, 'failed expectation') : '', warnings > 0 ? plural(warnings, 'warning') : ''].filter(Boolean).join(', ');
  out.push(`${pass ? c.green(c.bold('verdict: PASS')) : c.red(c.bold('verdict: FAIL'))}${why ? ` (${why})` : ''}`);
  return out.join('\n') + '\n';
}
