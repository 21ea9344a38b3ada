/** `faultline run`'s check for the gemini wire's SDK, an optional peer dependency. */
import type { LoadedTask } from '../suites/load-suite.js';
import { CliError } from './io.js';

export interface GeminiNeed {
  provider: string;
  wire?: 'anthropic' | 'openai' | 'responses' | 'gemini';
  replay?: string;
}

/** A run that needs the SDK and lacks it is refused before any trace is written (a replay calls no SDK). */
export async function requireGeminiSdk(opts: GeminiNeed, tasks: LoadedTask[]): Promise<void> {
  if (opts.replay) return;
  const { geminiTasks, geminiSdkMissing } = await import('../suites/gemini-peer.js');
  const needed = opts.provider === 'mock' ? geminiTasks(tasks, opts.wire).length > 0 : opts.provider === 'gemini';
  const missing = needed ? await geminiSdkMissing() : null;
  if (missing) throw new CliError(missing.message);
}
