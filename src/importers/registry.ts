/** Every importer, by format name (one file each in this directory). Detection tries them in this order. */
import { claudeCode } from './claude-code.js';
import { openaiAgents } from './openai-agents.js';
import { otel } from './otel.js';
import { tauBench } from './tau-bench.js';
import { tau2Bench } from './tau2-bench.js';
import type { FormatName, Importer } from './types.js';

export const IMPORTERS: Readonly<Record<FormatName, Importer>> = {
  otel,
  'openai-agents': openaiAgents,
  'tau-bench': tauBench,
  'tau2-bench': tau2Bench,
  'claude-code': claudeCode,
};

export function importerFor(name: string): Importer | undefined {
  return Object.hasOwn(IMPORTERS, name) ? IMPORTERS[name as FormatName] : undefined;
}
