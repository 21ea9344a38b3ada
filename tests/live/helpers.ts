/** Shared set-up for the live-path tests: a CLI io that captures output, and a throwaway suite. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliIo } from '../../src/cli/io.js';
import { tempDir } from '../helpers/temp-dirs.js';

export interface CapturedIo extends CliIo {
  out(): string;
  err(): string;
}

export function captureIo(env: NodeJS.ProcessEnv = {}): CapturedIo {
  const out: string[] = [];
  const err: string[] = [];
  return {
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    env,
    cwd: process.cwd(),
    isTTY: false,
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

/** A suite with one unscripted task: read note.txt and report what it says. */
export function liveSuite(note = 'hello live'): { dir: string; suite: string } {
  const dir = tempDir('faultline-live-');
  mkdirSync(join(dir, 'suite'));
  const suite = join(dir, 'suite', 'live.yaml');
  writeFileSync(
    suite,
    [
      'suite: live-smoke',
      'tasks:',
      '  - id: read-note',
      '    prompt: What does note.txt say?',
      '    tools: [read]',
      `    files: { note.txt: "${note}\\n" }`,
      '    expect:',
      `      answer: { contains: "${note}" }`,
      '      events:',
      '        - count(tool_success where tool = read) == 1',
      '        - lost == 0',
      '',
    ].join('\n'),
  );
  return { dir, suite };
}

/** Parsed JSONL trace lines. */
export function traceEvents(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
