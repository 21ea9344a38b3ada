/**
 * The README's shell examples, read from README.md itself (so an edited or
 * added example is tested without touching the test), and what running one
 * in a test means. Every line of every ```sh block is an example; a trailing
 * `# comment` is dropped, and a line ending in `\` continues on the next.
 *
 * Blocks run in README order; the examples of one block are independent of
 * each other (they run concurrently) and may use what earlier blocks wrote.
 *
 * How an example is run (the substitutions are the only liberties taken):
 * - `npm ci && ...`: the install is the one this test runs in; the rest runs.
 * - `npx faultline` / `faultline`: this checkout's CLI from source.
 * - `npm test`: not run again from inside itself; the test checks that the
 *   `test` script runs vitest (and so this test).
 * - live: an example that needs a key or a provider on the network. A
 *   `NAME=...` prefix (a key to fill in) is dropped and the key left unset,
 *   and every provider key is removed from the environment of every example,
 *   so nothing reaches a real API: such a run must fail before it starts,
 *   with one line and exit 2, writing nothing. An example that names a local
 *   server (`--base-url http://127.0.0.1...`) runs against whatever is
 *   there — nothing, in a test — and must end its sessions as model errors
 *   (exit 1), not crash.
 */
import { readFileSync } from 'node:fs';

export type Expectation =
  /** Exit 0. */
  | { kind: 'ok' }
  /** Exit 0, or 1 where 1 is a documented verdict (a regression found). */
  | { kind: 'verdict' }
  /** A live provider with no key or recording: exit 2, one line on stderr, no file written. */
  | { kind: 'refused'; because: string }
  /** A local server that is not there: exit 1, every session a model error. */
  | { kind: 'unreachable' }
  /** Not run; `because` says what the test checks instead. */
  | { kind: 'not_run'; because: string };

export interface Example {
  /** 1-based line of README.md where the example starts. */
  line: number;
  /** As written in the README, comment dropped. */
  text: string;
  /** The shell command the test runs. */
  command: string;
  /** Environment variables the example sets that the test leaves unset. */
  unset: string[];
  expect: Expectation;
}

export interface Block {
  line: number;
  examples: Example[];
}

const LIVE_PROVIDERS = /--provider\s+(anthropic|openai|openai-responses|gemini)(?![\w-])/;

export function readmeBlocks(readmePath: string): Block[] {
  const lines = readFileSync(readmePath, 'utf8').split('\n');
  const blocks: Block[] = [];
  let current: Block | null = null;
  let pending: { line: number; text: string } | null = null;
  lines.forEach((raw, index) => {
    if (current === null) {
      if (/^```(sh|bash|shell)\s*$/.test(raw)) current = { line: index + 1, examples: [] };
      return;
    }
    if (/^```\s*$/.test(raw)) {
      blocks.push(current);
      current = null;
      return;
    }
    const text = stripComment(raw).trimEnd();
    if (pending === null && text.trim() === '') return;
    const joined = pending ? `${pending.text} ${text.trim()}` : text.trim();
    const start = pending?.line ?? index + 1;
    if (joined.endsWith('\\')) {
      pending = { line: start, text: joined.slice(0, -1).trimEnd() };
      return;
    }
    pending = null;
    current.examples.push(example(start, joined));
  });
  return blocks;
}

/** `cmd --x y   # why` -> `cmd --x y` (a `#` inside quotes stays). */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

function example(line: number, text: string): Example {
  const unset: string[] = [];
  let command = text.replace(/^((?:[A-Z_][A-Z0-9_]*=\.\.\.\s+)+)/, (prefix) => {
    unset.push(...prefix.trim().split(/\s+/).map((p) => p.split('=')[0]!));
    return '';
  });
  command = command.replace(/^npm ci\s*&&\s*/, '').replace(/\bnpx faultline\b/g, 'faultline');
  if (/^npm test\b/.test(command)) return { line, text, command, unset, expect: { kind: 'not_run', because: 'npm test is the run this test is part of' } };
  let expect: Expectation = { kind: 'ok' };
  if (unset.length > 0 || LIVE_PROVIDERS.test(command)) expect = { kind: 'refused', because: `no key (${unset.join(', ') || 'provider key'} unset)` };
  else if (/--replay\s/.test(command)) expect = { kind: 'refused', because: 'no recording: the example that records needs a key' };
  else if (/--base-url\s+http:\/\/(127\.0\.0\.1|localhost)/.test(command)) expect = { kind: 'unreachable' };
  else if (/--fail-on-regression\b/.test(command)) expect = { kind: 'verdict' };
  return { line, text, command, unset, expect };
}
