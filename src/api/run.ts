/**
 * `run()`: what `faultline run` does, as a function returning data — suite
 * files or directories through the harness against the scripted mock (or a
 * ModelSource of your own), a JSONL trace when `out` is given, and the same
 * document `faultline run --json` prints.
 */
import { withMcpNames, type McpNameMode } from '../events/private-names.js';
import { JsonlSink, MemorySink, type EventSink } from '../events/index.js';
import type { SandboxMode } from '../events/labels.js';
import { jsonDocument } from '../report/json-format.js';
import { loadSuites } from '../suites/load-suite.js';
import { mockModelSource } from '../suites/mock-source.js';
import type { ModelSource } from '../suites/model-source.js';
import { runJson, type RunJson } from '../suites/run-json.js';
import { runSuite } from '../suites/run-suite.js';

export interface RunOptions {
  /** Trace file to write (JSONL); without it the events are kept in memory only. */
  out?: string;
  /** Tasks at once (default 4). */
  concurrency?: number;
  /** Sessions per task (default 1). */
  repeat?: number;
  /** Only tasks whose id contains this text. */
  filter?: string;
  /** The wire the mock speaks to tasks that do not pin one (default anthropic). */
  wire?: 'anthropic' | 'openai' | 'responses' | 'gemini';
  /** How the SDK reaches the mock for tasks that do not pin one: memory (in-process fetch, default) or http (loopback server). */
  transport?: 'memory' | 'http';
  /** OS sandbox for bash (default: each task's `sandbox`, else auto). */
  sandbox?: SandboxMode;
  /** Your own provider (e.g. a live or replayed one); default the scripted mock. */
  source?: ModelSource;
  signal?: AbortSignal;
  /** MCP server and tool names in the events: `private` (hashed, default) or `verbatim`. */
  mcpNames?: McpNameMode;
}

export type RunResult = ReturnType<typeof jsonDocument<RunJson>>;

export async function run(suites: string | readonly string[], options: RunOptions = {}): Promise<RunResult> {
  let tasks = loadSuites(typeof suites === 'string' ? [suites] : [...suites]);
  if (options.filter !== undefined) tasks = tasks.filter((t) => t.id.includes(options.filter!));
  const mock = options.source ? null : mockModelSource({ wire: options.wire, ...(options.transport ? { transport: options.transport } : {}) });
  // MCP server and tool names are private by default (events/private-names.ts).
  const sink: EventSink = withMcpNames(options.out ? new JsonlSink(options.out, { truncate: true }) : new MemorySink(), options.mcpNames);
  try {
    const summary = await runSuite({
      tasks,
      sink,
      source: options.source ?? mock!,
      concurrency: options.concurrency ?? 4,
      repeat: options.repeat ?? 1,
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return jsonDocument(runJson(summary, options.out ?? null));
  } finally {
    if (sink instanceof JsonlSink) sink.close();
    await mock?.close();
  }
}
