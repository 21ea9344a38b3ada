/** `faultline run`'s model source: a replay, the mock, or a live provider; wrapped for --record. */
import type { LiveProvider } from '../suites/live-source.js';
import type { LoadedTask } from '../suites/load-suite.js';
import type { ModelSource } from '../suites/model-source.js';
import { CliError, type CliIo } from './io.js';

/** The run options that choose the source (as commander parses them). */
export interface SourceOptions {
  provider: 'mock' | LiveProvider;
  model?: string;
  baseUrl?: string;
  strict?: boolean;
  stream?: boolean;
  record?: string;
  replay?: string;
  wire?: 'anthropic' | 'openai' | 'responses' | 'gemini';
  transport?: 'memory' | 'http';
}

/** Which ModelSource runs the tasks: a replay, the mock, or a live provider; wrapped for --record. */
export async function selectSource(opts: SourceOptions, tasks: LoadedTask[], io: CliIo, mock: ModelSource): Promise<ModelSource> {
  if (opts.replay && opts.record) throw new CliError('--record and --replay cannot be combined: a replay makes no new exchanges');
  if (opts.replay && opts.provider !== 'mock') throw new CliError('--replay plays a recording back: drop --provider (the recording names its provider)');
  if (!opts.replay && opts.provider !== 'mock' && (opts.model === undefined || opts.model === '')) {
    throw new CliError(`--model is required with --provider ${opts.provider}`);
  }
  if (opts.wire && opts.provider !== 'mock') throw new CliError(`--wire chooses what the mock speaks; --provider ${opts.provider} speaks its own wire`);
  if (opts.transport && (opts.provider !== 'mock' || opts.replay)) throw new CliError(`--transport chooses how the SDK reaches the mock; ${opts.replay ? '--replay' : `--provider ${opts.provider}`} does not use the mock`);
  if (opts.strict && opts.provider === 'mock') throw new CliError('--strict applies to live providers (see `faultline schema --strict` for the payload it sends)');
  let source: ModelSource;
  if (opts.replay) {
    // Each source's module only when it is used: live-source loads every provider SDK (Gemini's with Google's auth
    // library), which a mock run never needs on its main thread.
    const { replayModelSource, ReplayError } = await import('../suites/replay-source.js');
    try {
      source = replayModelSource(opts.replay);
    } catch (error) {
      if (error instanceof ReplayError) throw new CliError(error.message);
      throw error;
    }
  } else if (opts.provider === 'mock') {
    const unscripted = tasks.filter((t) => t.script === undefined).map((t) => `${t.suite}/${t.id}`);
    if (unscripted.length > 0) {
      throw new CliError(
        `the mock provider needs a script, and ${unscripted.length === 1 ? 'this task has' : 'these tasks have'} none: ${unscripted.join(', ')}\n` +
          `run ${unscripted.length === 1 ? 'it' : 'them'} live (--provider anthropic|openai|openai-compatible|gemini --model <m>), or --replay <dir>`,
      );
    }
    source = mock;
  } else {
    const { liveModelSource, LiveSourceError } = await import('../suites/live-source.js');
    try {
      source = liveModelSource({ provider: opts.provider, model: opts.model!, baseURL: opts.baseUrl, env: io.env, strictTools: opts.strict ?? false, stream: opts.stream ?? false });
    } catch (error) {
      if (error instanceof LiveSourceError) throw new CliError(error.message);
      throw error;
    }
  }
  if (!opts.record) return source;
  const { recordingSource } = await import('../suites/record.js');
  return recordingSource(source, opts.record);
}
