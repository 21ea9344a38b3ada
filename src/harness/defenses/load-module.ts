/**
 * Loads a suite's defense module (`defenses: [./my-defense.mjs]`) with
 * dynamic import. The module exports one defense or a list, as the default
 * export or as `defense` / `defenses`; each is checked like defineDefense
 * does, and a name that a shipped defense already has is refused (two
 * defenses under one label would merge in every report).
 */
import { pathToFileURL } from 'node:url';
import { importOncePerPath } from '../module-import.js';
import { defineDefense, DefenseDefinitionError } from './define.js';
import { shippedDefense } from './registry.js';
import type { HookDefense } from './types.js';

export class DefenseLoadError extends Error {
  readonly code = 'DEFENSE_LOAD_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'DefenseLoadError';
  }
}

/** `modulePath` is resolved against `baseDir` (the suite file's directory) when relative. */
export const loadDefenseModule: (modulePath: string, baseDir: string) => Promise<HookDefense[]> = importOncePerPath((full) => importDefenses(full));

/** Every defense of several modules, refusing one name declared twice. */
export async function loadDefenseModules(paths: readonly string[], baseDir: string): Promise<HookDefense[]> {
  const all = (await Promise.all(paths.map((p) => loadDefenseModule(p, baseDir)))).flat();
  const seen = new Set<string>();
  for (const d of all) {
    if (seen.has(d.name)) throw new DefenseLoadError(`defense "${d.name}" is declared by more than one of: ${paths.join(', ')}`);
    seen.add(d.name);
  }
  return all;
}

async function importDefenses(full: string): Promise<HookDefense[]> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(full).href)) as Record<string, unknown>;
  } catch (error) {
    throw new DefenseLoadError(`cannot load defense module ${full}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const exported = mod.default ?? mod.defenses ?? mod.defense;
  const list = Array.isArray(exported) ? exported : exported === undefined ? [] : [exported];
  if (list.length === 0) throw new DefenseLoadError(`defense module ${full} exports no defense (export default defineDefense({...}), or \`defenses\`)`);
  return list.map((candidate) => {
    try {
      const defense = defineDefense(candidate as HookDefense);
      if (shippedDefense(defense.name)) throw new DefenseLoadError(`defense module ${full}: "${defense.name}" is the name of a shipped defense; choose another`);
      return defense;
    } catch (error) {
      if (error instanceof DefenseDefinitionError) throw new DefenseLoadError(`defense module ${full}: ${error.message}`);
      throw error;
    }
  });
}
