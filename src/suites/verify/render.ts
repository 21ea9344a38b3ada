/** verify-defense output: a terminal matrix (fits 100 columns), Markdown, JSON. */
import { JSON_FORMAT_VERSION } from '../../report/json-format.js';
import type { DefenseVerdict, Ratio, VerdictStatus } from './verify-defense.js';

const STATUS_TEXT: Record<VerdictStatus, string> = { verified: 'verified', partly_verified: 'partly verified', skipped: 'skipped', not_verified: 'NOT verified' };

/** The scenarios left out for want of an OS sandbox: the environment is named as the cause, with what to do. */
function skippedLines(verdicts: readonly DefenseVerdict[], sandboxProblem: string | null): string[] {
  const seen = new Map<string, string>();
  for (const v of verdicts) for (const s of v.skipped) seen.set(`${s.scenario} (${s.run})`, s.reason);
  if (seen.size === 0) return [];
  return [
    `Skipped ${seen.size} scenario run${seen.size === 1 ? '' : 's'} that need an OS sandbox, which this machine lacks${sandboxProblem ? ` (${sandboxProblem})` : ''}:`,
    ...[...seen].map(([what, why]) => `  - ${what}: ${why}`),
    'These are not judged against the defense. Run them where bubblewrap works (Linux with user namespaces: apt-get install bubblewrap).',
  ];
}

const ratio = (r: Ratio): string => (r.total === 0 ? '—' : `${r.hits}/${r.total} ${Math.round((100 * r.hits) / r.total)}%`);

function rows(verdicts: readonly DefenseVerdict[]): string[][] {
  return verdicts.map((v) => [
    v.defense,
    v.action,
    v.defaultOn ? 'on' : 'off',
    ratio(v.recall),
    ratio(v.falsePositives),
    v.mutationsKilled.total === 0 ? '—' : `${v.mutationsKilled.hits}/${v.mutationsKilled.total} failed`,
    STATUS_TEXT[v.status],
  ]);
}

const HEAD = ['defense', 'action', 'default', 'recall', 'false positives', 'defense off', 'verdict'];

export function renderTerminal(verdicts: readonly DefenseVerdict[], sandboxProblem: string | null = null): string {
  const table = [HEAD, ...rows(verdicts)];
  const widths = HEAD.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  const out = [line(table[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...table.slice(1).map(line)];
  for (const v of verdicts) for (const p of v.problems) out.push(`  ✗ ${v.defense}: ${p}`);
  const skipped = skippedLines(verdicts, sandboxProblem);
  if (skipped.length > 0) out.push('', ...skipped);
  const bad = verdicts.filter((v) => !v.verified).length;
  const partial = verdicts.filter((v) => v.status === 'partly_verified' || v.status === 'skipped').length;
  out.push(
    '',
    bad > 0
      ? `${bad} of ${verdicts.length} defense${verdicts.length === 1 ? '' : 's'} NOT verified (see ✗ above).`
      : partial > 0
        ? `No defense failed: ${verdicts.length - partial} verified in full, ${partial} only on the scenarios this machine can run (see Skipped above).`
        : `${verdicts.length} defense${verdicts.length === 1 ? '' : 's'} verified: each fired on every fault scenario, on no control, and every fault scenario failed with it off.`,
  );
  return out.join('\n') + '\n';
}

export function renderMarkdown(verdicts: readonly DefenseVerdict[], sandboxProblem: string | null = null): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const out = [`| ${HEAD.join(' | ')} |`, `|${HEAD.map(() => '---').join('|')}|`, ...rows(verdicts).map((r) => `| ${r.map(esc).join(' | ')} |`)];
  const problems = verdicts.flatMap((v) => v.problems.map((p) => `- \`${v.defense}\`: ${esc(p)}`));
  if (problems.length > 0) out.push('', '**Problems**', '', ...problems);
  const skipped = skippedLines(verdicts, sandboxProblem);
  if (skipped.length > 0) out.push('', `**${esc(skipped[0]!)}**`, '', ...skipped.slice(1, -1).map((l) => esc(l.trim())), '', esc(skipped.at(-1)!));
  return out.join('\n') + '\n';
}

/** The JSON document (snake_case keys, like every faultline JSON output). */
export function verifyJson(verdicts: readonly DefenseVerdict[], sandboxProblem: string | null = null) {
  return {
    format_version: VERIFY_JSON_FORMAT,
    verified: verdicts.every((v) => v.verified),
    sandbox_problem: sandboxProblem,
    defenses: verdicts.map((v) => ({
      defense: v.defense,
      action: v.action,
      origin: v.origin,
      default_on: v.defaultOn,
      status: v.status,
      verified: v.verified,
      recall: v.recall,
      false_positives: v.falsePositives,
      mutations_killed: v.mutationsKilled,
      problems: v.problems,
      checks: v.checks.map((c) => ({ scenario: c.scenario, suite: c.suite, run: c.run, role: c.role, ok: c.ok, problems: c.problems, duration_ms: c.durationMs })),
      skipped: v.skipped,
    })),
  };
}

/** The version every faultline JSON document carries (report/json-format.ts). */
const VERIFY_JSON_FORMAT = JSON_FORMAT_VERSION;

export function renderJson(verdicts: readonly DefenseVerdict[], sandboxProblem: string | null = null): string {
  return JSON.stringify(verifyJson(verdicts, sandboxProblem), null, 2) + '\n';
}
