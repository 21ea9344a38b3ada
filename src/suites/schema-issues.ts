/**
 * A zod issue of the suite schema as `file:line:col: path: reason` lines: an
 * unknown key at the key itself (with a did-you-mean from the schema's keys),
 * a missing key at its mapping, a problem inside a string (an event
 * assertion) at its word, and a union failure as what went wrong in the
 * branch the user most likely meant: the one whose keys are the keys the
 * value has.
 */
import { didYouMean } from './did-you-mean.js';
import { SuiteSpec } from './schema.js';
import { allowedKeys, objectsAt } from './schema-keys.js';
import type { Position, YamlPositions } from './yaml-positions.js';

export interface IssueLike {
  code?: string;
  path: PropertyKey[];
  message: string;
  errors?: IssueLike[][];
  /** The value at `path` (the suite is parsed with `reportInput`). */
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
    const meant = inMeantShape(issue, allowed);
    if (meant !== null) return meant.flatMap((inner) => issueMessages(inner, where, at));
    return issue.keys.map((key) => {
      const place = `${at(where.key(issue.path, key))}: ${[...path, key].join('.')}`;
      const clash = allowed.includes(key) ? clashingKeys(issue, key) : [];
      if (clash.length > 0) return `${place}: "${key}" cannot be used with ${clash.map((k) => `"${k}"`).join(', ')}`;
      return `${place}: unknown key "${key}"${didYouMean(key, allowed)}`;
    });
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
  const failed = issue.errors.filter((b) => b.length > 0);
  // The branches whose shape the value has (its type, its keys) come first: the others fail on that alone.
  const fitting = failed.filter(fits);
  const branches = (fitting.length > 0 ? fitting : failed).map((b) => mostSpecific(b[0]!));
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

/** A branch that failed inside the value, not on its type or on a key the branch does not have. */
function fits(branch: IssueLike[]): boolean {
  return branch.every((issue) => {
    if (issue.path.length > 0) return true;
    if (issue.code === 'unrecognized_keys' || issue.code === 'invalid_type') return false;
    return issue.code !== 'invalid_union' || (issue.errors ?? []).some(fits);
  });
}

/**
 * The issues of the shape the value's keys point to, when zod blamed a key that shape has. A union whose one
 * branch fails on an unknown key (and goes on) and the other on a value (and stops) reports the first branch
 * alone: `rule: [{ then: { text: 1 } }]` as an unknown key "rule" of a fixed turn, where the mistake is the
 * number under a rule turn. Null when no shape at the path has every key of the value, or it passes.
 */
function inMeantShape(issue: IssueLike, allowed: readonly string[]): IssueLike[] | null {
  const value = issue.input;
  if (!issue.keys!.every((key) => allowed.includes(key))) return null;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  const shape = objectsAt(SuiteSpec, issue.path).find((o) => keys.every((key) => key in o.shape));
  const parsed = shape?.safeParse(value, { reportInput: true });
  if (parsed === undefined || parsed.success) return null;
  return parsed.error.issues.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
}

/** Keys of the value that no shape with `key` has (a fixed turn's `text` beside a rule turn's `rule`). */
function clashingKeys(issue: IssueLike, key: string): string[] {
  const value = issue.input;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const withKey = objectsAt(SuiteSpec, issue.path).filter((o) => key in o.shape);
  return Object.keys(value).filter((k) => k !== key && !withKey.some((o) => k in o.shape));
}
