/**
 * Evaluates a task's expectations after its session: the final answer, the
 * workspace files, the stop attribution and the session's events. Each check
 * becomes one `expectation` event; the task passes when all hold.
 */
import { resolve, sep } from 'node:path';
import type { TurnStop } from '../events/labels.js';
import { redact } from '../events/redact.js';
import { checkEventAssertion, parseEventAssertion, type EventRecord } from './event-assertion.js';
import type { FileExpectation, TaskExpect, TextMatch } from './schema.js';
import { fileMismatch } from './file-mismatch.js';
import { inspectWorkspaceFile } from './workspace-file.js';

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
    // Redacted before it is cut: a key cut in half would no longer be recognised, and half a key is still a leak.
    results.push({ id: `answer.${i}`, ok, detail: `answer ${what}${ok ? '' : `; answer was: ${redact(facts.finalText).slice(0, 200)}`}` });
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
  // Read on the real path, below the workspace only: the model may have left a link to ~/.ssh or a FIFO there.
  const seen = inspectWorkspaceFile(workspace, full);
  if (seen.kind === 'outside') return { ok: false, detail: `${path}: ${seen.why}` };
  const exists = seen.kind !== 'missing';
  if ('exists' in check) return { ok: exists === check.exists, detail: `${path} ${check.exists ? 'exists' : 'does not exist'} (it ${exists ? 'does' : 'does not'})` };
  if (!exists) return { ok: false, detail: `${path} does not exist` };
  if (seen.kind === 'directory') return { ok: false, detail: `${path} is a directory, not a text file` };
  if (seen.kind === 'special') return { ok: false, detail: `${path} is a ${seen.what}, not a regular file` };
  const { ok, what } = matchText(check, seen.text);
  // The file's text goes into the trace and the reports: redacted like every other text the model wrote, and
  // before it is quoted (a quoted line break, `\nASIA…`, would hide a token's start from the redaction).
  const shown = ok ? '' : `; ${fileMismatch('equals' in check ? redact(check.equals) : null, redact(seen.text))}`;
  return { ok, detail: `${path} ${what}${shown}` };
}
