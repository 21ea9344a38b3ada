/**
 * The built-in mock provider as a ModelSource: each task's script is mounted
 * on the mock and the REAL SDK adapter talks to it, so every run goes through
 * the official clients and the real wire shapes.
 *
 * Two transports, one engine path (mock/mock-router.ts):
 *  - memory (default): the SDK client gets a fetch that hands the request to
 *    the mock in-process and returns a real Response (mock/memory-fetch.ts);
 *    about a quarter of the CPU of a call over a socket;
 *  - http: the process-wide loopback server (127.0.0.1, real sockets), for
 *    tasks whose fault is the socket itself (`transport: http` in the suite).
 * msw is for in-process unit tests only: it cannot drop a connection, and msw 2
 * on Node 20 hangs when a body is cancelled, which a retry or an abort does.
 */
import { loadGeminiSdk } from '../providers/gemini-sdk.js';
import type { Wire } from '../mock/wire-errors.js';
import type { LoadedTask } from './load-suite.js';
import type { ModelSource } from './model-source.js';
import { connectionPool } from './connection-pool.js';
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
  /**
   * How the SDK reaches the mock for every task that does not pin one with
   * `transport:` (default memory). A pinned task keeps its transport: it pins
   * http because its fault is a real socket's.
   */
  transport?: MockTransport;
}

export type MockTransport = 'memory' | 'http';
export const MOCK_TRANSPORTS: readonly MockTransport[] = ['memory', 'http'];

export function mockModelSource(options: MockSourceOptions = {}): ModelSource & { close(): Promise<void> } {
  const transportOf = (task: LoadedTask): MockTransport => task.transport ?? options.transport ?? 'memory';
  // The mock and the SDKs load with the first session, not with the source: a run on worker threads
  // never opens a session on the main thread, so it does not load them there (about half its start-up).
  let loopback: typeof import('../mock/loopback-model.js') | null = null;
  let memory: typeof import('../mock/memory-model-lazy.js') | null = null;
  return {
    provider: 'mock',
    modelName: 'mock-scripted',
    transport: transportOf,
    async open(task: LoadedTask) {
      if (!task.script) throw new Error(`task ${task.id} has no script; the mock provider needs one`);
      const wire = taskWire(task, options.wire);
      // The gemini adapter loads its SDK (an optional peer) on first use; load it here so a missing one fails the open, with the install command.
      if (wire === 'gemini') await loadGeminiSdk();
      const stream = options.stream ?? task.stream ?? false;
      const transport = transportOf(task);
      const modelOptions = { wire, stream, strictTools: task.strict_tools ?? false, streamIdleTimeoutMs: task.stream_idle_timeout_ms, firstByteTimeoutMs: task.first_byte_timeout_ms, promptCache: task.prompt_cache };
      let opened;
      if (transport === 'http') {
        loopback ??= await import('../mock/loopback-model.js');
        // The server is this process's own: its connections are counted in the descriptor budget (connection-pool.ts).
        opened = await loopback.loopbackModel(task.script, { ...modelOptions, dispatcher: connectionPool(`http://${loopback.LOOPBACK_HOST}`) });
      } else {
        memory ??= await import('../mock/memory-model-lazy.js');
        // The suite schema parsed the script already: the mount takes it as it is. Only the wire's SDK is loaded.
        opened = await memory.openMemoryModel({ parsed: task.script }, modelOptions);
      }
      const { model, session } = opened;
      return { model, close: () => session.close() };
    },
    async close() {
      // The loopback server is process-wide; stop it (if a task started it) so the CLI process can exit.
      await loopback?.stopSharedLoopbackServer();
    },
  };
}
