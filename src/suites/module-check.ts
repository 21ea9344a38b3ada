/**
 * A suite's defense and hook modules are loaded when the suite is, not when
 * its first session starts: a module that cannot load (a missing package, a
 * syntax error, no defense exported) is a mistake in the suite, reported at
 * the `defenses:` or `hooks:` line that names it, before any task runs.
 * Otherwise every task would end as a harness error, one by one.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Node } from 'yaml';
import { DefenseLoadError, loadDefenseModule } from '../harness/defenses/load-module.js';
import { HookLoadError, loadHooks } from '../harness/hooks/load-hooks.js';
import { yaml } from './lazy-yaml.js';
import type { LoadedTask } from './load-suite.js';

type ModuleKey = 'defenses' | 'hooks';

/** `file:line:col` of the first `key:` entry naming `value` (the file alone when it is not found). */
function positionOf(file: string, key: ModuleKey, value: string): string {
  const { isScalar, isSeq, LineCounter, parseDocument, visit } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter: lines });
  let offset: number | null = null;
  visit(doc, {
    Pair(_key, pair) {
      if (!isScalar(pair.key) || pair.key.value !== key) return undefined;
      const items: unknown[] = isSeq(pair.value) ? pair.value.items : [pair.value];
      const hit = items.find((node): node is Node => isScalar(node) && node.value === value && node.range !== undefined && node.range !== null);
      if (!hit?.range) return undefined;
      offset = hit.range[0];
      return visit.BREAK;
    },
  });
  if (offset === null) return file;
  const at = lines.linePos(offset);
  return `${file}:${at.line}:${at.col}`;
}

/** Every module named by the tasks, loaded once; the problems as `file:line:col: defenses: reason`. */
export async function checkSuiteModules(tasks: readonly LoadedTask[]): Promise<string[]> {
  const wanted = new Map<string, { file: string; key: ModuleKey; path: string }>();
  for (const task of tasks) {
    for (const path of task.defenses ?? []) wanted.set(`${task.file}\0defenses\0${path}`, { file: task.file, key: 'defenses', path });
    if (task.hooks) wanted.set(`${task.file}\0hooks\0${task.hooks}`, { file: task.file, key: 'hooks', path: task.hooks });
  }
  const problems: string[] = [];
  for (const { file, key, path } of wanted.values()) {
    try {
      if (key === 'defenses') await loadDefenseModule(path, dirname(file));
      else await loadHooks(path, dirname(file));
    } catch (error) {
      if (!(error instanceof DefenseLoadError || error instanceof HookLoadError)) throw error;
      problems.push(`${positionOf(file, key, path)}: ${key}: ${error.message}`);
    }
  }
  return problems;
}
