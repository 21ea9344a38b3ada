/**
 * find's expression as a tree, evaluated on one entry with three-valued
 * logic, to know whether the entry can reach an `-exec` (find evaluates left
 * to right with short-circuit `-a`/`-o`). Used for the symlinks under the
 * start paths: `find . -name '*.ts' -exec wc -l {} +` never hands `./link`
 * to wc, `find . -exec cat {} +` does, and cat follows it out of the
 * workspace. Only `-name`, `-iname`, `-type`, `-true` and `-false` are
 * decided; every other test is unknown, so an unknown entry counts as
 * reaching the exec (over-approximation).
 */
import { segmentMatcher } from './glob-match.js';

export type FindNode =
  | { readonly k: 'and' | 'or' | 'comma'; readonly a: FindNode; readonly b: FindNode }
  | { readonly k: 'not'; readonly a: FindNode }
  | { readonly k: 'test'; readonly name: string; readonly arg: string | null }
  | { readonly k: 'exec'; readonly index: number };

export type FindToken = { readonly op: string } | { readonly test: string; readonly arg: string | null } | { readonly exec: number };

/** The expression tree of `tokens` (find's grammar: `,` < `-o` < `-a`/juxtaposition < `!`), or null when malformed. */
export function findTree(tokens: readonly FindToken[]): FindNode | null {
  let i = 0;
  const isOp = (...ops: string[]) => {
    const t = tokens[i];
    return t !== undefined && 'op' in t && ops.includes(t.op);
  };
  const primary = (): FindNode | null => {
    const t = tokens[i];
    if (t === undefined) return null;
    if ('op' in t) {
      if (t.op !== '(') return null;
      i++;
      const inner = comma();
      if (inner === null || !isOp(')')) return null;
      i++;
      return inner;
    }
    i++;
    return 'exec' in t ? { k: 'exec', index: t.exec } : { k: 'test', name: t.test, arg: t.arg };
  };
  const not = (): FindNode | null => {
    if (isOp('!', '-not')) {
      i++;
      const a = not();
      return a === null ? null : { k: 'not', a };
    }
    return primary();
  };
  const and = (): FindNode | null => {
    let a = not();
    while (a !== null && i < tokens.length && !isOp('-o', '-or', ',', ')')) {
      if (isOp('-a', '-and')) i++;
      const b = not();
      a = b === null ? null : { k: 'and', a, b };
    }
    return a;
  };
  const or = (): FindNode | null => {
    let a = and();
    while (a !== null && isOp('-o', '-or')) {
      i++;
      const b = and();
      a = b === null ? null : { k: 'or', a, b };
    }
    return a;
  };
  const comma = (): FindNode | null => {
    let a = or();
    while (a !== null && isOp(',')) {
      i++;
      const b = or();
      a = b === null ? null : { k: 'comma', a, b };
    }
    return a;
  };
  if (tokens.length === 0) return { k: 'test', name: '-true', arg: null };
  const tree = comma();
  return tree !== null && i === tokens.length ? tree : null;
}

type V = 'T' | 'F' | 'U';

/** One entry as find sees it: its name, and whether it is a symlink find does not follow. */
export interface FindEntry {
  readonly name: string;
  readonly symlink: boolean;
}

/** The execs the entry may reach (indices). `follow`: find -L (a link's type is its target's: unknown here). */
export function reachedExecs(tree: FindNode, entry: FindEntry, follow: boolean): Set<number> {
  const reached = new Set<number>();
  const evaluate = (n: FindNode): V => {
    switch (n.k) {
      case 'exec':
        reached.add(n.index);
        return 'U';
      case 'not': {
        const a = evaluate(n.a);
        return a === 'U' ? 'U' : a === 'T' ? 'F' : 'T';
      }
      case 'and': {
        const a = evaluate(n.a);
        if (a === 'F') return 'F';
        const b = evaluate(n.b);
        return a === 'T' ? b : b === 'F' ? 'F' : 'U';
      }
      case 'or': {
        const a = evaluate(n.a);
        if (a === 'T') return 'T';
        const b = evaluate(n.b);
        return a === 'F' ? b : b === 'T' ? 'T' : 'U';
      }
      case 'comma':
        evaluate(n.a);
        return evaluate(n.b);
      case 'test':
        return test(n.name, n.arg, entry, follow);
    }
  };
  evaluate(tree);
  return reached;
}

function test(name: string, arg: string | null, entry: FindEntry, follow: boolean): V {
  switch (name) {
    case '-true':
      return 'T';
    case '-false':
      return 'F';
    case '-name':
    case '-iname': {
      const m = arg === null ? null : segmentMatcher(name === '-iname' ? arg.toLowerCase() : arg);
      if (m === null || !/^[\x20-\x7e]*$/.test(entry.name)) return 'U';
      return m.strict.test(name === '-iname' ? entry.name.toLowerCase() : entry.name) ? 'T' : 'F';
    }
    case '-type':
      if (follow || arg === null || !entry.symlink) return 'U';
      return arg.split(',').includes('l') ? 'T' : 'F';
    default:
      return 'U';
  }
}
