/** The messages between `faultline run`'s main thread and its worker threads (thread-pool.ts, task-thread.ts). */
import type { McpNameMode } from '../events/private-names.js';
import type { SandboxMode } from '../events/labels.js';
import type { LoadedTask } from './load-suite.js';
import type { MockSourceOptions } from './mock-source.js';
import type { TaskOutcome } from './run-task.js';
import type { SessionUsage } from './session-usage.js';

/** The model source a worker builds for itself: only sources that need nothing from the main thread. */
export type ThreadSourceSpec = { kind: 'mock'; options: MockSourceOptions } | { kind: 'replay'; dir: string };

/**
 * workerData: what a worker needs before the suite is read (it starts while
 * the main thread parses): its model source and how sessions are kept. The
 * run itself comes in the `setup` message, each task with its `run` message.
 */
export interface ThreadInit {
  source: ThreadSourceSpec;
  mcpNames: McpNameMode;
  keepWorkspaces?: boolean;
  sandbox?: SandboxMode;
}

/** The run a worker's sessions belong to, sent once before its first `run`. */
export interface ThreadSetup {
  runId: string;
  /** Most sessions this worker may be given at once (its run-abort signal's listener budget). */
  concurrency: number;
  /** Parent of this worker's workspaces (default: the system temp directory); known once the suite is read. */
  tempDir?: string;
  /** tempDir is faultline's own choice (run-task.ts's TaskRunOptions). */
  tempDirFallback?: boolean;
}

export type ToThread =
  | ({ type: 'setup' } & ThreadSetup)
  /** One session: the task travels with it, so each task is copied to one worker once, not the whole suite to every worker. */
  | { type: 'run'; slot: number; task: LoadedTask; r: number; sessionId: string }
  | { type: 'abort'; reason: unknown }
  /** No more units: remove the workspaces, close the source, say so. */
  | { type: 'drain' };

export interface ThreadEvents {
  lines: string;
  started: string[];
  /**
   * The turns and tokens of the turn events among `lines`, by session: the
   * main thread sums them, so the session_end it writes for a session whose
   * worker died carries what the trace shows, not zero.
   */
  usage: Record<string, SessionUsage>;
}

/** Each `ts body` line of a ThreadEvents' `lines`, in order (JSON has no raw newline, so a line is one event). */
export function forEachThreadLine(lines: string, each: (ts: number, body: string) => void): void {
  for (let at = 0; at < lines.length; ) {
    const space = lines.indexOf(' ', at);
    const eol = lines.indexOf('\n', space);
    each(Number(lines.slice(at, space)), lines.slice(space + 1, eol));
    at = eol + 1;
  }
}

export type FromThread =
  | { type: 'ready' }
  /** Serialized events in emit order, a `ts body` line each; `started` names the sessions whose session_start is among them. */
  | ({ type: 'events' } & ThreadEvents)
  /** A session ended; the events still waiting in the worker come with it, before it. */
  | ({ type: 'outcome'; slot: number; outcome: Omit<TaskOutcome, 'task'> } & ThreadEvents)
  /** runTask threw (a bug, not a task failure). */
  | { type: 'failed'; slot: number; message: string }
  | { type: 'drained' };
