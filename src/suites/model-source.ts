/**
 * Where a task's model comes from. The runner asks for one model per session
 * and never learns whether it is mocked (docs/architecture.md).
 */
import type { SessionTransport } from '../events/labels.js';
import type { Model } from '../providers/types.js';
import type { LoadedTask } from './load-suite.js';

export interface SessionModel {
  model: Model;
  /** Releases whatever the model holds (a mock registration, a server). */
  close(): void | Promise<void>;
}

/** Which session a model is opened for: recording and replay key their files by it. */
export interface SessionContext {
  /** 0-based repeat index (`--repeat k`). */
  repeat: number;
  /** The session's workspace root (absolute), so recordings can store it as a placeholder. */
  workspace: string;
}

export interface ModelSource {
  /** Label for run_start. */
  readonly provider: string;
  readonly modelName: string;
  open(task: LoadedTask, session?: SessionContext): Promise<SessionModel>;
  /** What will answer this task's model calls, for session_start (known before the model is opened). Absent: not recorded. */
  transport?(task: LoadedTask): SessionTransport;
}
