/** verify-defense output: a terminal matrix (fits 100 columns), Markdown, JSON. */
import type { DefenseVerdict, Ratio } from './verify-defense.js';

const ratio = (r: Ratio): string => (r.total === 0 ? '—' : `${r.hits}/${r.total} ${Math.round((100 * r.hits) / r.total)}%`);

function rows(verdicts: readonly DefenseVerdict[]): string[][] {
  return verdicts.map((v) => [
    v.defense,
    v.action,
    v.defaultOn ? 'on' : 'off',
    ratio(v.recall),
    ratio(v.falsePositives),
    v.mutationsKilled.total === 0 ? '—' : `${v.mutationsKilled.hits}/${v.mutationsKilled.total} failed`,
    v.verified ? 'verified' : 'NOT verified',
  ]);
}

const HEAD = ['defense', 'action', 'default', 'recall', 'false positives', 'defense off', 'verdict'];

export function renderTerminal(verdicts: readonly DefenseVerdict[]): string {
  const table = [HEAD, ...rows(verdicts)];
  const widths = HEAD.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  const out = [line(table[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...table.slice(1).map(line)];
  for (const v of verdicts) for (const p of v.problems) out.push(`  ✗ ${v.defense}: ${p}`);
  const bad = verdicts.filter((v) => !v.verified).length;
  out.push(
    '',
    bad === 0
      ? `${verdicts.length} defense${verdicts.length === 1 ? '' : 's'} verified: each fired on every fault scenario, on no control, and every fault scenario failed with it off.`
      : `${bad} of ${verdicts.length} defense${verdicts.length === 1 ? '' : 's'} NOT verified (see ✗ above).`,
  );
  return out.join('\n') + '\n';
}

export function renderMarkdown(verdicts: readonly DefenseVerdict[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const out = [`| ${HEAD.join(' | ')} |`, `|${HEAD.map(() => '---').join('|')}|`, ...rows(verdicts).map((r) => `| ${r.map(esc).join(' | ')} |`)];
  const problems = verdicts.flatMap((v) => v.problems.map((p) => `- \`${v.defense}\`: ${esc(p)}`));
  if (problems.length > 0) out.push('', '**Problems**', '', ...problems);
  return out.join('\n') + '\n';
}

export function renderJson(verdicts: readonly DefenseVerdict[]): string {
  return JSON.stringify({ verified: verdicts.every((v) => v.verified), defenses: verdicts }, null, 2) + '\n';
}
