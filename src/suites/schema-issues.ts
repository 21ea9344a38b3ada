/**
 * A zod issue of the suite schema as `file:line:col: path: reason` lines: an
 * unknown key at the key itself (with a did-you-mean from the schema's keys),
 * a missing key at its mapping, a problem inside a string (an event
 * assertion) at its word, and a union failure as what went wrong in the
 * branch the user most likely meant.
 */
import { didYouMean } from './did-you-mean.js';
import { SuiteSpec } from './schema.js';
import { allowedKeys } from './schema-keys.js';
import type { Position, YamlPositions } from './yaml-positions.js';

export interface IssueLike {
  code?: string;
  path: PropertyKey[];
  message: string;
  errors?: IssueLike[][];
  /** invalid_type */
  input?: unknown;
  /** unrecognized_keys */
  keys?: string[];
  /** custom issues: `offset` into the string at fault (event assertions) */
  params?: { offset?: unknown };
}

export function issueMessages(raw: IssueLike, where: YamlPositions, at: (p: Position) => string): string[] {
  const issue = mostSpecific(raw);
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    const allowed = allowedKeys(SuiteSpec, issue.path);
    return issue.keys.map((key) => `${at(where.key(issue.path, key))}: ${[...path, key].join('.')}: unknown key "${key}"${didYouMean(key, allowed)}`);
  }
  if (issue.code === 'invalid_type' && issue.input === undefined && path.length > 0) {
    return [`${at(where.node(issue.path.slice(0, -1)))}: ${path.join('.')}: missing key "${path[path.length - 1]}"`];
  }
  const offset = issue.params?.offset;
  const pos = typeof offset === 'number' ? where.inString(issue.path, offset) : where.node(issue.path);
  return [`${at(pos)}: ${path.join('.') || '(root)'}: ${issue.message}`];
}

/**
 * A union failure ("Invalid input") says nothing useful. When every branch
 * the value's type fits rejects the same key, that key is the mistake
 * (`answer: { contain: x }`); otherwise descend into the branch that got
 * furthest (deepest first issue) and report that issue with its full path,
 * e.g. `script.0.tool_use.0.name: expected string`.
 */
function mostSpecific(issue: IssueLike): IssueLike {
  if (issue.code !== 'invalid_union' || !issue.errors?.length) return issue;
  const keys = unknownEverywhere(issue);
  if (keys.length > 0) return { code: 'unrecognized_keys', path: issue.path, keys, message: '' };
  const branches = issue.errors.filter((b) => b.length > 0).map((b) => mostSpecific(b[0]!));
  if (branches.length === 0) return issue;
  const best = branches.reduce((a, b) => (b.path.length > a.path.length ? b : a));
  return { ...best, path: [...issue.path, ...best.path] };
}

/** Keys at the union's own level that every branch the value's type fits rejects (none when one branch takes them). */
function unknownEverywhere(union: IssueLike): string[] {
  const fitting = (union.errors ?? []).filter((b) => b.length > 0 && !(b[0]!.code === 'invalid_type' && b[0]!.path.length === 0));
  if (fitting.length === 0) return [];
  const perBranch = fitting.map((branch) => {
    const keys = new Set<string>();
    for (const issue of branch) {
      if (issue.path.length > 0) continue;
      if (issue.code === 'unrecognized_keys') for (const key of issue.keys ?? []) keys.add(key);
      if (issue.code === 'invalid_union') for (const key of unknownEverywhere(issue)) keys.add(key);
    }
    return keys;
  });
  return [...perBranch[0]!].filter((key) => perBranch.every((keys) => keys.has(key)));
}
