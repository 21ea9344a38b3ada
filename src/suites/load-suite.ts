/**
 * Loads suite files (YAML) from files and directories. Every problem is
 * reported as `file:line: path: reason` so a user can jump straight to it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { LineCounter, parseDocument, isNode } from 'yaml';
import { SuiteSpec, type TaskSpec } from './schema.js';

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

/** Expands files and directories (recursively, sorted) into suite files. */
export function findSuiteFiles(paths: string[]): string[] {
  const out: string[] = [];
  const visit = (path: string): void => {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      throw new SuiteError([`${path}: no such file or directory`]);
    }
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path).sort()) {
        const child = join(path, entry);
        if (statSync(child).isDirectory() || ['.yaml', '.yml'].includes(extname(entry))) visit(child);
      }
    } else out.push(path);
  };
  for (const path of paths) visit(path);
  return out;
}

/**
 * Two parsers, one meaning: js-yaml reads a valid suite about 10x faster than
 * `yaml` (2,000 tasks: a few hundred ms instead of seconds), but only `yaml`
 * keeps the source positions every error message needs. So a suite is read
 * with js-yaml first (YAML 1.2 core schema, as `yaml` reads it: no merge keys,
 * no timestamps), and anything it rejects, or that fails the schema, is read
 * again with `yaml` for the `file:line:` errors. load-suite.test.ts checks
 * both parsers agree on every shipped suite.
 */
export function loadSuiteFile(file: string): { suite: string; tasks: LoadedTask[] } {
  const text = readFileSync(file, 'utf8');
  const fast = fastParse(text);
  if (fast.ok) {
    const parsed = SuiteSpec.safeParse(fast.value);
    if (parsed.success) return suiteTasks(parsed.data, file);
  }
  return loadSlowly(file, text);
}

function fastParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: loadYaml(text, { schema: CORE_SCHEMA }) };
  } catch {
    return { ok: false };
  }
}

function suiteTasks(spec: SuiteSpec, file: string): { suite: string; tasks: LoadedTask[] } {
  const suite = spec.suite ?? basename(file, extname(file));
  const tasks = spec.tasks.map((task) => ({ ...spec.defaults, ...task, suite, file }) as LoadedTask);
  return { suite, tasks };
}

/** The `yaml` path: positions for every error (and the same result as the fast path when there is none). */
function loadSlowly(file: string, text: string): { suite: string; tasks: LoadedTask[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new SuiteError(doc.errors.map((e) => `${file}:${e.linePos?.[0]?.line ?? 1}: YAML: ${e.message.split('\n')[0]}`));
  }
  const parsed = SuiteSpec.safeParse(doc.toJS());
  if (!parsed.success) {
    throw new SuiteError(
      parsed.error.issues.map((raw) => {
        const issue = mostSpecific(raw);
        const path = issue.path.map(String);
        const line = lineOf(doc, lines, path);
        return `${file}:${line}: ${path.join('.') || '(root)'}: ${issue.message}`;
      }),
    );
  }
  return suiteTasks(parsed.data, file);
}

export function loadSuites(paths: string[]): LoadedTask[] {
  const tasks: LoadedTask[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const file of findSuiteFiles(paths)) {
    try {
      for (const task of loadSuiteFile(file).tasks) {
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
  if (tasks.length === 0) throw new SuiteError([`no tasks found in ${paths.join(', ')}`]);
  return tasks;
}

interface IssueLike {
  code?: string;
  path: PropertyKey[];
  message: string;
  errors?: IssueLike[][];
}

/**
 * A union failure ("Invalid input") says nothing useful; descend into the
 * branch that got furthest (deepest first issue) and report that issue with
 * its full path, e.g. `script.0.tool_use.0.name: expected string`.
 */
function mostSpecific(issue: IssueLike): IssueLike {
  if (issue.code !== 'invalid_union' || !issue.errors?.length) return issue;
  const branches = issue.errors.filter((b) => b.length > 0).map((b) => mostSpecific(b[0]!));
  if (branches.length === 0) return issue;
  const best = branches.reduce((a, b) => (b.path.length > a.path.length ? b : a));
  return { ...best, path: [...issue.path, ...best.path] };
}

/** The line of the deepest YAML node that exists along `path`. */
function lineOf(doc: ReturnType<typeof parseDocument>, counter: LineCounter, path: string[]): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
  }
  return 1;
}
