/**
 * The Tasks block of a diff in words: what a task's verdict is, whether a
 * flip gates on these sides, and which tasks flipped, were fixed, or sit on
 * one side only. Terminal and Markdown both print these lines.
 */
import { flipText, type TaskDiff } from '../analysis/task-diff.js';

/** Names listed in one line before `… and N more (all in --json)`. */
const NAMES_SHOWN = 20;

function names(ids: string[]): string {
  const shown = ids.slice(0, NAMES_SHOWN).join(', ');
  return ids.length > NAMES_SHOWN ? `${shown} … and ${ids.length - NAMES_SHOWN} more (all in --json)` : shown;
}

function sidesText(t: TaskDiff): string {
  if (t.flips_are_regressions) return t.scripted.base && t.scripted.candidate ? 'both sides scripted (mock or replay), so every PASS → FAIL flip is a regression' : 'every PASS → FAIL flip is a regression (--flips always)';
  if (!t.scripted.base || !t.scripted.candidate) return 'a live or imported side: flips are listed, not regressions on their own; the pass-rate test decides (--flips always to gate on them)';
  return 'flips are listed, not regressions (--flips never)';
}

export function diffTaskTitle(t: TaskDiff): string {
  return `Tasks (a task passes when every ended session of it passed, pass^k over repeats; ${sidesText(t)})`;
}

/** The block's lines, and the flips to list in full when they are not regressions (those are listed under Regressions). */
export function diffTaskLines(t: TaskDiff): { lines: string[]; flips: string[] } {
  const lines = [`${t.compared} compared on both sides: ${t.flipped.length} PASS → FAIL, ${t.fixed.length} FAIL → PASS, ${t.still_failing.length} failing on both`];
  if (t.flipped.length > 0 && t.flips_are_regressions) lines.push(`PASS → FAIL (under Regressions): ${names(t.flipped.map((f) => f.task_id))}`);
  if (t.fixed.length > 0) lines.push(`FAIL → PASS: ${names(t.fixed.map((f) => f.task_id))}`);
  if (t.still_failing.length > 0) lines.push(`failing on both sides: ${names(t.still_failing)}`);
  if (t.only_in_candidate.length > 0) lines.push(`only in candidate (new tasks; not a regression): ${names(t.only_in_candidate)}`);
  if (t.only_in_base.length > 0) lines.push(`only in base (not run in the candidate; not a regression): ${names(t.only_in_base)}`);
  if (t.not_compared.length > 0) lines.push(`not compared (a side has no ended session with an outcome: cut short, or not recorded by the source): ${names(t.not_compared)}`);
  return { lines, flips: t.flips_are_regressions ? [] : t.flipped.map(flipText) };
}
