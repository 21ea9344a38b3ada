/**
 * grep: search file contents with a JavaScript regular expression. Output is
 * `file:line:text`, sorted by file, capped with a note. Binary files,
 * node_modules and .git are skipped. An invalid regex is a `tool_error` with a
 * fix hint: the model wrote it and can correct it.
 */
import { lstat, stat } from 'node:fs/promises';
import { closeOpened } from '../safe-fs/beneath.js';
import { openChecked } from './checked-file.js';
import { join } from 'node:path';
import { glob as tinyglob } from 'tinyglobby';
import { z } from 'zod';
import { isBinaryBuffer } from './binary.js';
import { byCodeUnit } from './compare.js';
import { abortedOutput, fsErrorOutput, isAbortError } from './fs-errors.js';
import { escapingPattern } from './glob.js';
import { RegexMatcher, RegexStopped } from './regex-worker.js';
import type { Tool, ToolOutput } from './tool.js';
import { refusal, resolveWorkspacePath } from './workspace-path.js';

export const GREP_MAX_MATCHES = 200;
export const GREP_MAX_LINE_CHARS = 500;
/** Larger files are skipped: they are almost always generated or data, and would stall the search. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Matching time one call may spend in all (the call's own timeout may stop it sooner). */
export const GREP_MATCH_BUDGET_MS = 10_000;

const schema = z.strictObject({
  pattern: z.string().min(1).describe('JavaScript regular expression to search for, e.g. "function\\s+load".'),
  path: z
    .string()
    .optional()
    .describe('File or directory to search, relative to the workspace root. Omit to search the whole workspace.'),
  glob: z
    .string()
    .optional()
    .describe('Only search files whose path matches this glob, e.g. "**/*.ts"; "*.ts" matches at any depth.'),
  ignore_case: z.boolean().optional().describe('Match case-insensitively. Defaults to false.'),
});
export type GrepInput = z.infer<typeof schema>;

export const grepTool: Tool<GrepInput> = {
  name: 'grep',
  description:
    'Search the contents of workspace files for a JavaScript regular expression. Returns matching lines as file:line:text.',
  usage: [
    '- The pattern is a JavaScript regex, matched line by line; escape ( ) [ ] { } . * + ? \\ | ^ $ to match them literally.',
    '- Narrow the search with path (a file or directory) and glob (e.g. "**/*.ts").',
    '- Binary files, files over 5 MB, node_modules, .git and .faultline are skipped.',
    `- At most ${GREP_MAX_MATCHES} matching lines are shown; a note gives the total when more matched.`,
    '- Use grep instead of grep or rg through bash; use glob to find files by name.',
  ].join('\n'),
  inputSchema: schema,
  readOnly: true,
  // A directory walk, the file being searched and a regex worker's channel.
  descriptors: 8,
  isConcurrencySafe: () => true,
  emptyText: '(no matches)',
  async execute(input, { workspace, signal }): Promise<ToolOutput> {
    if (signal.aborted) return abortedOutput();
    const regex = compile(input.pattern, input.ignore_case === true);
    if (!(regex instanceof RegExp)) return regex;
    const escape = input.glob === undefined ? null : escapingPattern(input.glob);
    if (escape) return escape;
    const base = await resolveWorkspacePath(workspace, input.path ?? '.');
    if (!base.ok) return refusal(base);
    try {
      const files = (await stat(base.path)).isDirectory()
        ? await listFiles(base.path, base.relative, input.glob, signal)
        : [{ path: base.path, shown: base.relative }];
      const result = await search(files, regex, workspace, base.root, signal);
      return result ?? abortedOutput();
    } catch (error) {
      if (error instanceof RegexStopped && error.why === 'budget') return tooSlow();
      if (isAbortError(error) || signal.aborted) return abortedOutput();
      return fsErrorOutput(error, base.relative, 'search');
    }
  },
};

function compile(pattern: string, ignoreCase: boolean): RegExp | ToolOutput {
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      content:
        `The pattern is not a valid JavaScript regular expression (${reason}). ` +
        'Escape special characters such as ( ) [ ] { } . * + ? with a backslash to match them literally, then call grep again.',
      isError: true,
      errorCode: 'invalid_regex',
    };
  }
}

interface FileRef {
  path: string;
  shown: string;
}

async function listFiles(dir: string, shownDir: string, filter: string | undefined, signal: AbortSignal): Promise<FileRef[]> {
  // A filter without "/" means a file name at any depth, as in rg --glob.
  const pattern = filter === undefined ? '**/*' : filter.includes('/') ? filter : `**/${filter}`;
  const found = await tinyglob(pattern, {
    cwd: dir,
    dot: true,
    onlyFiles: true,
    expandDirectories: false,
    followSymbolicLinks: false,
    ignore: ['**/.git/**', '**/.faultline/**', '**/node_modules/**'],
    signal,
  });
  return found.sort(byCodeUnit).map((p) => ({ path: join(dir, p), shown: join(shownDir, p) }));
}

/** Returns null when aborted. */
async function search(files: FileRef[], regex: RegExp, workspace: string, root: string, signal: AbortSignal): Promise<ToolOutput | null> {
  const shownLines: string[] = [];
  let total = 0;
  let binary = 0;
  // The regex runs in a worker thread (regex-worker.ts): a backtracking pattern must not hold the event loop.
  const matcher = new RegexMatcher(regex.source, regex.flags, signal, GREP_MATCH_BUDGET_MS);
  try {
    for (const file of files) {
      if (signal.aborted) return null;
      const content = await readSearchable(file.path, workspace, root, signal);
      if (content.kind === 'binary') binary += 1;
      if (content.kind !== 'text') continue;
      const hits = await matcher.match(content.text);
      if (hits.length === 0) continue;
      const lines = content.text.split(/\r?\n/); // as the worker split it: the index of a hit is its line
      for (const i of hits) {
        total += 1;
        if (shownLines.length < GREP_MAX_MATCHES) shownLines.push(`${file.shown}:${i + 1}:${cut(lines[i] ?? '')}`);
      }
    }
  } finally {
    matcher.release();
  }
  return { content: format(shownLines, total, binary), empty: total === 0 };
}

function tooSlow(): ToolOutput {
  return {
    content:
      `The pattern took more than ${GREP_MATCH_BUDGET_MS / 1000} s to match and was stopped (nested repetition such as (a+)+ backtracks without end on some lines). ` +
      'Simplify the pattern (no nested quantifiers, anchor it, or search for a literal part first) and call grep again.',
    isError: true,
    errorCode: 'regex_timeout',
  };
}

/**
 * File text, or a reason to skip it. A symlink is only followed when its
 * target is inside the workspace: grep must not become a way to read outside.
 * (The walk does not list links today; this keeps that true if it ever does.)
 */
async function readSearchable(path: string, workspace: string, root: string, signal: AbortSignal): Promise<Searchable> {
  let real = path;
  if ((await lstat(path)).isSymbolicLink()) {
    const resolved = await resolveWorkspacePath(workspace, path);
    if (!resolved.ok) return { kind: 'skip' };
    real = resolved.path;
  }
  // Opened below the workspace without following a link at any component, and read from that descriptor:
  // a directory swapped for a link after the walk listed it is skipped, never read through (checked-file.ts).
  const opened = await openChecked(workspace, real, { root }).catch(() => null); // the root the search's check resolved, once
  if (opened === null) return { kind: 'skip' };
  try {
    const stats = await opened.handle?.stat(); // a link may dangle: nothing to search
    if (!opened.handle || !stats || !stats.isFile() || stats.size > MAX_FILE_BYTES) return { kind: 'skip' };
    const buffer = await opened.handle.readFile({ signal });
    if (isBinaryBuffer(buffer)) return { kind: 'binary' };
    return { kind: 'text', text: buffer.toString('utf8') };
  } finally {
    await closeOpened(opened);
  }
}

type Searchable = { kind: 'text'; text: string } | { kind: 'binary' } | { kind: 'skip' };

function cut(line: string): string {
  return line.length <= GREP_MAX_LINE_CHARS ? line : `${line.slice(0, GREP_MAX_LINE_CHARS)}…`;
}

function format(lines: string[], total: number, binary: number): string {
  if (total === 0) {
    return binary > 0 ? `(no matches; ${binary} binary file${binary === 1 ? ' was' : 's were'} skipped)` : '(no matches)';
  }
  if (lines.length === total) return lines.join('\n');
  return `${lines.join('\n')}\n\n(showing the first ${lines.length} of ${total} matching lines; narrow the pattern, path or glob to see the rest)`;
}
