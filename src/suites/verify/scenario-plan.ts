/**
 * Which scenarios verify which defense: a fault scenario names its defense
 * (`defense:`), a control names the defenses it imitates (`control_for:`).
 * A defense that is off by default is switched on for its own scenarios, and
 * a user's defense module is added to every task that does not load it.
 */
import { resolve, dirname } from 'node:path';
import type { LoadedTask } from '../load-suite.js';

export interface DefenseUnderTest {
  name: string;
  defaultOn: boolean;
  /** Absolute path of the module that declares it (user defenses). */
  module?: string;
}

export function faultsOf(tasks: readonly LoadedTask[], defense: string): LoadedTask[] {
  return tasks.filter((t) => t.defense === defense);
}

export function controlsOf(tasks: readonly LoadedTask[], defense: string): LoadedTask[] {
  return tasks.filter((t) => t.control_for?.includes(defense));
}

/** The task as verify-defense runs it: with the defenses under test that it concerns switched on and loaded. */
export function armedFor(task: LoadedTask, concerned: readonly DefenseUnderTest[]): LoadedTask {
  const enable = concerned.filter((d) => !d.defaultOn).map((d) => d.name);
  const own = new Set((task.defenses ?? []).map((m) => resolve(dirname(task.file), m)));
  const modules = concerned.flatMap((d) => (d.module && !own.has(d.module) ? [d.module] : []));
  if (enable.length === 0 && modules.length === 0) return task;
  return {
    ...task,
    enabled_defenses: [...new Set([...(task.enabled_defenses ?? []), ...enable])],
    defenses: [...(task.defenses ?? []), ...new Set(modules)],
  };
}

export function withDefenseOff(task: LoadedTask, defense: string): LoadedTask {
  return { ...task, disabled_defenses: [...new Set([...(task.disabled_defenses ?? []), defense])] };
}
