/**
 * How a run looks while it goes and when it ends: a progress bar on a TTY,
 * one plain line per task otherwise, then a summary table and every failed
 * check. Pure string builders; the CLI decides where they go.
 */
import Table from 'cli-table3';
import { createColors } from 'picocolors';
import { plural } from '../report/plural.js';
import { taskReliability } from './repeat-stats.js';
import type { RunSummary } from './run-suite.js';
import type { TaskOutcome } from './run-task.js';
import { wantsColor } from '../report/color-choice.js';

export type Colors = ReturnType<typeof createColors>;

export function colorsFor(isTTY: boolean, env: NodeJS.ProcessEnv): Colors {
  return createColors(wantsColor(isTTY, env));
}

function badge(outcome: TaskOutcome['outcome'], c: Colors): string {
  switch (outcome) {
    case 'passed':
      return c.green('PASS');
    case 'failed':
      return c.red('FAIL');
    case 'error':
      return c.red('ERR ');
    case 'aborted':
      return c.yellow('ABRT');
  }
}

/** A session's name: the task, plus `#n` (1-based) when tasks repeat. */
function sessionName(o: TaskOutcome, repeated: boolean): string {
  return `${o.task.suite}/${o.task.id}${repeated ? ` #${o.repeat + 1}` : ''}`;
}

/** One line per finished task (non-TTY progress). */
export function taskLine(o: TaskOutcome, done: number, total: number, c: Colors, repeated = false): string {
  const width = String(total).length;
  return `[${String(done).padStart(width)}/${total}] ${badge(o.outcome, c)} ${sessionName(o, repeated)}  ${c.dim(`${plural(o.turns, 'turn')}, ${o.stop}, ${o.durationMs} ms`)}\n`;
}

/** A single-line progress bar, redrawn in place with \r (TTY progress). */
export function progressBar(done: number, total: number, failed: number, c: Colors, width = 24): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
  const fails = failed > 0 ? c.red(` ${failed} failing`) : '';
  return `\r${bar} ${done}/${total}${fails}\u001b[K`;
}

export function summaryText(summary: RunSummary, tracePath: string, c: Colors): string {
  const table = new Table({
    head: ['task', 'outcome', 'stop', 'turns', 'tokens', 'ms', 'checks'],
    style: { head: c.isColorSupported ? ['cyan'] : [], border: c.isColorSupported ? ['grey'] : [] },
    // No rule between rows: one line per task reads better with many tasks.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  const repeated = summary.repeat > 1;
  const { listed, note } = tableRows(summary.outcomes);
  for (const o of listed) {
    const okChecks = o.expectations.filter((e) => e.ok).length;
    table.push([sessionName(o, repeated), badge(o.outcome, c), o.stop, o.turns, o.tokens, o.durationMs, `${okChecks}/${o.expectations.length}`]);
  }
  const lines = listed.length > 0 ? [table.toString(), ...(note ? [c.dim(note)] : []), ''] : [...(note ? [c.dim(note), ''] : [])];
  if (repeated) lines.push(reliabilityText(summary, c), '');
  for (const o of summary.outcomes) {
    const name = repeated ? `${o.task.id} #${o.repeat + 1}` : o.task.id;
    if (o.error) lines.push(c.red(`✗ ${name}: ${o.error}`));
    if (o.modelError) lines.push(c.red(`✗ ${name}: model call failed: ${o.modelError}`));
    for (const e of o.expectations.filter((x) => !x.ok)) lines.push(c.red(`✗ ${name} ${e.id}: ${e.detail}`));
  }
  const total = summary.outcomes.length;
  lines.push(
    `${summary.passed} passed, ${summary.failed} failed` +
      (summary.errored ? `, ${plural(summary.errored, 'error')}` : '') +
      (summary.aborted ? `, ${summary.aborted} aborted` : '') +
      (repeated ? ` (${plural(total, 'session')}: ${plural(total / summary.repeat, 'task')} x ${summary.repeat}, ${summary.durationMs} ms)` : ` (${plural(total, 'task')}, ${summary.durationMs} ms)`),
  );
  lines.push(sandboxLine(summary.outcomes));
  lines.push(`trace: ${tracePath}`);
  return lines.join('\n') + '\n';
}

/** Sessions listed one per row; beyond this a run lists only those that did not pass. */
export const SUMMARY_ROWS = 50;

/**
 * Which sessions the summary table lists. A table of 2,000 passing rows helps
 * no one and cost seconds to lay out, so past SUMMARY_ROWS sessions only the
 * ones that did not pass are listed (at most SUMMARY_ROWS), and a note says
 * what was left out; the trace has every session.
 */
function tableRows(outcomes: readonly TaskOutcome[]): { listed: readonly TaskOutcome[]; note: string | null } {
  if (outcomes.length <= SUMMARY_ROWS) return { listed: outcomes, note: null };
  const notPassed = outcomes.filter((o) => o.outcome !== 'passed');
  const listed = notPassed.slice(0, SUMMARY_ROWS);
  const passed = outcomes.length - notPassed.length;
  const more = notPassed.length - listed.length;
  const parts = [`${plural(passed, 'passed session')} not listed`];
  if (more > 0) parts.push(`${more} more not passed not listed`);
  return { listed, note: `(${parts.join('; ')}; the trace has every session)` };
}

const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;

/** Per task over `--repeat k`: passes, pass@1 with its Wilson 95% interval, pass^k. */
export function reliabilityText(summary: RunSummary, c: Colors): string {
  const k = summary.repeat;
  const table = new Table({
    head: ['task', 'passes', 'pass@1', '95% CI (Wilson)', `pass^${k}`],
    style: { head: c.isColorSupported ? ['cyan'] : [], border: c.isColorSupported ? ['grey'] : [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  const all = taskReliability(summary.outcomes, k);
  // Same cap as the summary table: past SUMMARY_ROWS tasks, only those not passing every repeat.
  const rows = all.length <= SUMMARY_ROWS ? all : all.filter((r) => r.passes < r.trials).slice(0, SUMMARY_ROWS);
  for (const r of rows) {
    table.push([`${r.suite}/${r.taskId}`, `${r.passes}/${r.trials}`, pct(r.pass1), `${pct(r.pass1Interval.low)}-${pct(r.pass1Interval.high)}`, pct(r.passHatK)]);
  }
  const left = all.length - rows.length;
  const note = left > 0 ? `\n${c.dim(`(${plural(left, 'task')} not listed: every repeat passed, or past the first ${SUMMARY_ROWS})`)}` : '';
  return rows.length > 0 ? table.toString() + note : note.trimStart();
}

/** Which OS sandbox ran bash (docs/harness-rules.md#permission-layers): `sandbox: bubblewrap`, or none and why. */
export function sandboxLine(outcomes: readonly TaskOutcome[]): string {
  const kinds = new Map<string, number>();
  for (const o of outcomes) if (o.sandbox) kinds.set(o.sandbox, (kinds.get(o.sandbox) ?? 0) + 1);
  const note = outcomes.find((o) => o.sandboxNote)?.sandboxNote;
  if (kinds.size === 0) return 'sandbox: not started (no session ran)';
  const parts = [...kinds].map(([k, n]) => (kinds.size === 1 ? k : `${k} (${plural(n, 'session')})`));
  return `sandbox: ${parts.join(', ')}${note ? ` — ${note}` : ''}`;
}
