/**
 * Where a task's model comes from. The runner asks for one model per session
 * and never learns whether it is mocked (DESIGN §1).
 */
import type { Model } from '../providers/types.js';
import type { LoadedTask } from './load-suite.js';

export interface SessionModel {
  model: Model;
  /** Releases whatever the model holds (a mock registration, a server). */
  close(): void | Promise<void>;
}

export interface ModelSource {
  /** Label for run_start. */
  readonly provider: string;
  readonly modelName: string;
  open(task: LoadedTask): Promise<SessionModel>;
}
