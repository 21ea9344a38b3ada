/**
 * What `faultline verify-defense <name|module>` and `--all` verify: shipped
 * defenses by name, a user's module by path (every defense it exports), and
 * the defenses the loaded suites' own `defenses:` modules declare.
 */
import { existsSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { loadDefenseModule } from '../../harness/defenses/load-module.js';
import { SHIPPED_DEFENSES } from '../../harness/defenses/registry.js';
import type { LoadedTask } from '../load-suite.js';
import type { VerifiedDefense } from './verify-defense.js';

export class UnknownDefenseError extends Error {
  readonly code = 'UNKNOWN_DEFENSE';
}

const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts']);

export function looksLikeModule(target: string): boolean {
  return MODULE_EXTENSIONS.has(extname(target)) || target.startsWith('.') || target.includes('/');
}

const shipped = (): VerifiedDefense[] => SHIPPED_DEFENSES.map((d) => ({ name: d.name, defaultOn: d.defaultOn, action: d.action, origin: 'shipped' }));

async function moduleDefenses(path: string): Promise<VerifiedDefense[]> {
  return (await loadDefenseModule(path, process.cwd())).map((d) => ({ name: d.name, defaultOn: d.defaultOn, action: d.action, origin: 'user', module: path }));
}

/** The defenses the suites' own modules declare (each module once). */
export async function suiteDefenses(tasks: readonly LoadedTask[]): Promise<VerifiedDefense[]> {
  const modules = [...new Set(tasks.flatMap((t) => (t.defenses ?? []).map((m) => resolve(dirname(t.file), m))))];
  const out: VerifiedDefense[] = [];
  for (const module of modules) for (const d of await moduleDefenses(module)) if (!out.some((o) => o.name === d.name)) out.push(d);
  return out;
}

/**
 * `--all`: every defense a loaded scenario names (`defense:` / `control_for:`),
 * shipped or from the suites' modules — and, over the shipped catalog
 * (`includeShipped`), every shipped defense, so one that lost its scenarios is
 * reported rather than skipped. A module's defense that no scenario names is
 * left out (it may be a fixture, as the green-but-broken scenarios' are); name
 * it or its module to verify it.
 */
export async function resolveDefenses(targets: readonly string[], all: boolean, tasks: readonly LoadedTask[], includeShipped = false): Promise<VerifiedDefense[]> {
  const fromSuites = await suiteDefenses(tasks);
  if (all) {
    const named = new Set(tasks.flatMap((t) => [...(t.defense ? [t.defense] : []), ...(t.control_for ?? [])]));
    return [...shipped().filter((d) => includeShipped || named.has(d.name)), ...fromSuites.filter((d) => named.has(d.name))];
  }
  const known = [...shipped(), ...fromSuites];
  const out: VerifiedDefense[] = [];
  for (const target of targets) {
    if (looksLikeModule(target)) {
      const path = resolve(target);
      if (!existsSync(path)) throw new UnknownDefenseError(`${target}: no such defense module`);
      out.push(...(await moduleDefenses(path)));
      continue;
    }
    const found = known.find((d) => d.name === target);
    if (!found) {
      const hint = closest(target, known.map((d) => d.name));
      throw new UnknownDefenseError(`unknown defense "${target}"${hint ? ` (did you mean ${hint}?)` : ''}; known: ${known.map((d) => d.name).join(', ')}`);
    }
    out.push(found);
  }
  return out;
}

function closest(word: string, candidates: readonly string[]): string | null {
  let best: { name: string; d: number } | null = null;
  for (const name of candidates) {
    const d = distance(word, name);
    if (d <= Math.max(2, Math.floor(name.length / 4)) && (!best || d < best.d)) best = { name, d };
  }
  return best?.name ?? null;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
