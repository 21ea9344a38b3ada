/**
 * Evaluates a task's expectations after its session: the final answer, the
 * workspace files, the stop attribution and the session's events. Each check
 * becomes one `expectation` event; the task passes when all hold.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { TurnStop } from '../events/labels.js';
import { checkEventAssertion, parseEventAssertion, type EventRecord } from './event-assertion.js';
import type { FileExpectation, TaskExpect, TextMatch } from './schema.js';
import { fileMismatch } from './file-mismatch.js';

export interface ExpectationResult {
  id: string;
  ok: boolean;
  detail: string;
}

export interface SessionFacts {
  finalText: string;
  stop: TurnStop;
  workspace: string;
  events: readonly EventRecord[];
}

export function evaluateExpectations(expect: TaskExpect, facts: SessionFacts): ExpectationResult[] {
  const results: ExpectationResult[] = [];
  if (expect.stop) {
    const allowed = Array.isArray(expect.stop) ? expect.stop : [expect.stop];
    results.push({ id: 'stop', ok: allowed.includes(facts.stop), detail: `expected stop ${allowed.join(' or ')}, got ${facts.stop}` });
  }
  const answers = expect.answer === undefined ? [] : Array.isArray(expect.answer) ? expect.answer : [expect.answer];
  answers.forEach((match, i) => {
    const { ok, what } = matchText(match, facts.finalText);
    results.push({ id: `answer.${i}`, ok, detail: `answer ${what}${ok ? '' : `; answer was: ${facts.finalText.slice(0, 200)}`}` });
  });
  for (const [path, check] of Object.entries(expect.files ?? {})) {
    results.push({ id: `files.${path}`, ...checkFile(facts.workspace, path, check) });
  }
  for (const source of expect.events ?? []) {
    const assertion = parseEventAssertion(source);
    const { ok, actual } = checkEventAssertion(assertion, facts.events);
    results.push({ id: `events.${source}`, ok, detail: `${source} (actual ${actual})` });
  }
  return results;
}

function matchText(match: TextMatch, text: string): { ok: boolean; what: string } {
  if ('contains' in match) return { ok: text.includes(match.contains), what: `contains ${JSON.stringify(match.contains)}` };
  if ('not_contains' in match) return { ok: !text.includes(match.not_contains), what: `does not contain ${JSON.stringify(match.not_contains)}` };
  if ('equals' in match) return { ok: text === match.equals, what: `equals ${JSON.stringify(match.equals)}` };
  return { ok: new RegExp(match.regex).test(text), what: `matches /${match.regex}/` };
}

function checkFile(workspace: string, path: string, check: FileExpectation): { ok: boolean; detail: string } {
  const full = resolve(workspace, path);
  if (full !== workspace && !full.startsWith(workspace + sep)) return { ok: false, detail: `${path} is outside the workspace` };
  const exists = existsSync(full);
  if ('exists' in check) return { ok: exists === check.exists, detail: `${path} ${check.exists ? 'exists' : 'does not exist'} (it ${exists ? 'does' : 'does not'})` };
  if (!exists) return { ok: false, detail: `${path} does not exist` };
  const text = readFileSync(full, 'utf8');
  const { ok, what } = matchText(check, text);
  return { ok, detail: `${path} ${what}${ok ? '' : `; ${fileMismatch('equals' in check ? check.equals : null, text)}`}` };
}
