/**
 * The file `--junit <file>` names: claimed before any task runs (a path that
 * cannot be written is bad usage, found before a long run rather than after
 * it), written when the results are in.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError, type CliIo } from './io.js';

export function claimJunitFile(io: CliIo, file: string): string {
  const path = resolve(io.cwd, file);
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
  } catch (error) {
    throw new CliError(`--junit ${file}: cannot write there (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return path;
}

export function writeJunitFile(path: string, xml: string): void {
  writeFileSync(path, xml);
}
