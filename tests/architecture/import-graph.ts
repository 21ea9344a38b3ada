/**
 * The project's own import graph, read with the TypeScript pre-processor (the
 * same scanner tsc uses for `import`, `export ... from` and `import()`), so the
 * layer and cycle tests see every edge the compiler sees, type-only imports
 * included: a type-only cycle still forces a reader to hold two files at once.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

/** Repository-relative path (with `/`) -> the project files it imports. */
export type ImportGraph = Map<string, Set<string>>;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (path.endsWith('.ts') && !path.endsWith('.d.ts') && !path.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

function resolveSpecifier(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const toKey = (root: string, path: string) => relative(root, path).split('\\').join('/');

/** The graph of the non-test `.ts` files under `<root>/src`. */
export function importGraph(root = REPO_ROOT): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(join(root, 'src'))) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const deps = new Set<string>();
    for (const ref of info.importedFiles) {
      const target = resolveSpecifier(file, ref.fileName);
      if (target && toKey(root, target).startsWith('src/')) deps.add(toKey(root, target));
    }
    graph.set(toKey(root, file), deps);
  }
  return graph;
}

/** Strongly connected components of more than one file (or a file importing itself): the import circles. */
export function importCycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.has(v)) cycles.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

/** `src/harness/loop/x.ts` -> `harness`; `src/index.ts` -> `index`. */
export function layerOf(path: string): string {
  const parts = path.split('/');
  return parts.length > 2 ? parts[1]! : parts[1]!.replace(/\.ts$/, '');
}
