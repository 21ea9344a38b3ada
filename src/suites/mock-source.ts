/**
 * The built-in mock provider as a ModelSource: each task's script is mounted
 * on the msw hub and the REAL SDK adapter is pointed at it, so every run goes
 * through the official clients and real HTTP shapes (DESIGN §4).
 */
import { mockModel } from '../mock/msw-hub.js';
import type { LoadedTask } from './load-suite.js';
import type { ModelSource } from './model-source.js';

export interface MockSourceOptions {
  /** Force one wire format for every task (default: each task's `wire`, else anthropic). */
  wire?: 'anthropic' | 'openai';
}

export function mockModelSource(options: MockSourceOptions = {}): ModelSource & { close(): Promise<void> } {
  return {
    provider: 'mock',
    modelName: 'mock-scripted',
    async open(task: LoadedTask) {
      if (!task.script) throw new Error(`task ${task.id} has no script; the mock provider needs one`);
      const wire = options.wire ?? task.wire ?? 'anthropic';
      const { model, session } = mockModel(task.script, { wire });
      return { model, close: () => session.close() };
    },
    async close() {
      // The msw hub is process-wide and cheap to keep; sessions close themselves.
    },
  };
}
