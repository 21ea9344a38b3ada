/**
 * The built-in mock provider as a ModelSource: each task's script is mounted
 * on the process-wide loopback server (127.0.0.1, real sockets) and the REAL
 * SDK adapter is pointed at it, so every run goes through the official clients
 * and real HTTP shapes (DESIGN §4).
 *
 * Why the loopback server and not msw: scripts declare wire faults (resets,
 * streams cut after N events, delays) that msw cannot carry out, and msw 2 on
 * Node 20 hangs when a body is cancelled, which a retry or an abort does
 * (DESIGN §7). The loopback mount is as fast (one local socket per request) and
 * runs every fault; the msw mount stays for in-process unit tests.
 */
import { loopbackModel, stopSharedLoopbackServer } from '../mock/loopback-model.js';
import type { Wire } from '../mock/wire-errors.js';
import type { LoadedTask } from './load-suite.js';
import type { ModelSource } from './model-source.js';
import { taskWire } from './wire-pins.js';

export interface MockSourceOptions {
  /**
   * The wire of every task that does not pin one with `wire:` (default
   * anthropic). A pinned task keeps its wire: it pins it because its fault only
   * exists there (an Anthropic-only stop reason, interleaved OpenAI deltas).
   */
  wire?: Wire;
  /** Force streaming on or off for every task (default: each task's `stream`, else off). */
  stream?: boolean;
}

export function mockModelSource(options: MockSourceOptions = {}): ModelSource & { close(): Promise<void> } {
  return {
    provider: 'mock',
    modelName: 'mock-scripted',
    async open(task: LoadedTask) {
      if (!task.script) throw new Error(`task ${task.id} has no script; the mock provider needs one`);
      const wire = taskWire(task, options.wire);
      const stream = options.stream ?? task.stream ?? false;
      const { model, session } = await loopbackModel(task.script, { wire, stream, strictTools: task.strict_tools ?? false });
      return { model, close: () => session.close() };
    },
    async close() {
      // The server is process-wide; stop it so the CLI process can exit.
      await stopSharedLoopbackServer();
    },
  };
}
