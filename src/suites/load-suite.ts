/**
 * Loads suite files (YAML) from files and directories. Every problem is
 * reported as `file:line:col: path: reason` so a user can jump straight to it.
 */
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { fastParse } from './fast-yaml.js';
import { MissingPathError, walkSuiteFiles, type FoundSuites } from './find-suite-files.js';
import { SuiteSpec, type TaskSpec } from './schema.js';
import { issueMessages } from './schema-issues.js';
import { yaml } from './lazy-yaml.js';
import { checkSuite } from './suite-checks.js';
import { validateByShape } from './validate-by-shape.js';
import { YamlPositions, type Position } from './yaml-positions.js';

export interface LoadedTask extends TaskSpec {
  suite: string;
  file: string;
}

export class SuiteError extends Error {
  readonly code = 'SUITE_INVALID';
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'SuiteError';
  }
}

/** Expands files and directories into suite files (find-suite-files.ts says which files a folder walk takes). */
export function findSuiteFiles(paths: string[]): string[] {
  return foundSuites(paths).files;
}

function foundSuites(paths: string[]): FoundSuites {
  try {
    return walkSuiteFiles(paths);
  } catch (error) {
    if (error instanceof MissingPathError) throw new SuiteError([error.message]);
    throw error;
  }
}

export interface LoadedSuite {
  suite: string;
  tasks: LoadedTask[];
  /** `file:line:col: path: reason` for what is likely a mistake but still runs (see suite-checks.ts). */
  warnings: string[];
}

export interface LoadOptions {
  /** Called with each warning (`file:line:col: path: reason`); warnings are not errors. */
  onWarning?: (warning: string) => void;
  /**
   * Called as each file is parsed, before it is validated, with the number of
   * task entries read so far (valid or not): `run` starts its worker threads
   * from it while the rest is checked.
   */
  onTasksRead?: (tasksSoFar: number) => void;
}

/**
 * Two parsers, one meaning: js-yaml reads a valid suite about 10x faster than
 * `yaml` (2,000 tasks: a few hundred ms instead of seconds), but only `yaml`
 * keeps the source positions every message needs. So a suite is read with
 * js-yaml first (YAML 1.2 core schema, as `yaml` reads it: fast-yaml.ts), and
 * anything it rejects or leaves to `yaml`, that fails the schema or the suite
 * checks, or that draws a warning, is read again with `yaml` for the
 * `file:line:col:` messages. fast-yaml.test.ts checks both parsers agree.
 */
export function loadSuiteFile(file: string, onParsed?: (tasks: number) => void): LoadedSuite {
  const text = readFileSync(file, 'utf8');
  const fast = fastParse(text);
  if (fast.ok) {
    const entries = (fast.value as { tasks?: unknown } | null)?.tasks;
    const count = Array.isArray(entries) ? entries.length : 0;
    onParsed?.(count);
    const parsed = validateByShape(fast.value, count < JIT_FROM_TASKS ? { jitless: true } : undefined);
    if (parsed !== null && checkSuite(parsed).length === 0) return { ...suiteTasks(parsed, file), warnings: [] };
  }
  return loadSlowly(file, text);
}

/**
 * Tasks from which the schema is checked by zod's compiled parsers. zod compiles one per object shape on its first
 * use (`new Function`), ~15 ms for this schema; a small suite is checked faster by the interpreting path, which
 * gives the same result (measured: 1 task 17 against 3.5 ms, 40 tasks 16 against 12 ms, 120 tasks 22 against 30).
 */
const JIT_FROM_TASKS = 64;

function suiteTasks(spec: SuiteSpec, file: string): { suite: string; tasks: LoadedTask[] } {
  const suite = spec.suite ?? basename(file, extname(file));
  // Object.assign, not spread: the same own keys (zod's output has only the schema's), a third of the CPU cold (2,000 tasks).
  const tasks = spec.tasks.map((task) => Object.assign({}, spec.defaults, task, { suite, file }) as LoadedTask);
  return { suite, tasks };
}

/** The `yaml` path: positions for every message (and the same result as the fast path when there is none). */
function loadSlowly(file: string, text: string): LoadedSuite {
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const where = new YamlPositions(doc, lines, text);
  const at = (p: Position) => `${file}:${p.line}:${p.col}`;
  // The parser's first error is the mistake; the ones after it usually follow from it.
  const [first] = doc.errors;
  if (first) {
    const { at: pos, noticed } = where.syntaxError(first);
    throw new SuiteError([`${at(pos)}: YAML: ${first.message.split('\n')[0]}${noticed ? ` (noticed at line ${noticed.line}, column ${noticed.col})` : ''}`]);
  }
  const parsed = SuiteSpec.safeParse(doc.toJS(), { reportInput: true });
  if (!parsed.success) throw new SuiteError(byPosition(unique(parsed.error.issues.flatMap((issue) => issueMessages(issue, where, at)))));
  const problems = checkSuite(parsed.data).map((p) => ({ ...p, text: `${at(where.node(p.path))}: ${p.path.map(String).join('.')}: ${p.message}` }));
  const errors = byPosition(unique(problems.filter((p) => p.severity === 'error').map((p) => p.text)));
  if (errors.length > 0) throw new SuiteError(errors);
  const warnings = byPosition(unique(problems.filter((p) => p.severity === 'warning').map((p) => p.text)));
  return { ...suiteTasks(parsed.data, file), warnings };
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

/** Messages of one file (`file:line:col: ...`) in source order. */
function byPosition(messages: string[]): string[] {
  const key = (m: string) => (/:(\d+):(\d+): /.exec(m) ?? [, '0', '0']).slice(1, 3).map(Number) as [number, number];
  return [...messages].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1];
  });
}

export function loadSuites(paths: string[], options: LoadOptions = {}): LoadedTask[] {
  const tasks: LoadedTask[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const found = foundSuites(paths);
  let read = 0;
  const onParsed = options.onTasksRead && ((count: number) => options.onTasksRead!((read += count)));
  for (const file of found.files) {
    try {
      const loaded = loadSuiteFile(file, onParsed);
      for (const warning of loaded.warnings) options.onWarning?.(warning);
      for (const task of loaded.tasks) {
        const other = seen.get(task.id);
        if (other) problems.push(`${file}: duplicate task id "${task.id}" (also in ${other})`);
        seen.set(task.id, file);
        tasks.push(task);
      }
    } catch (error) {
      if (error instanceof SuiteError) problems.push(...error.problems);
      else throw error;
    }
  }
  if (problems.length > 0) throw new SuiteError(problems);
  if (tasks.length === 0) {
    const skipped = found.notSuites.length === 0 ? '' : ` (YAML files without a top-level \`tasks:\` or \`suite:\` key are not suites: ${found.notSuites.slice(0, 5).join(', ')}${found.notSuites.length > 5 ? ', ...' : ''})`;
    throw new SuiteError([`no tasks found in ${paths.join(', ')}${skipped}`]);
  }
  return tasks;
}
