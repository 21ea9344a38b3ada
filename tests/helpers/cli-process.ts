/** The CLI from source as a child process, and how such a process ended (the signal tests). */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { ENDING_SIGNALS, type EndingSignal } from '../../src/cli/stop-on-signal.js';

const root = resolve(import.meta.dirname, '../..');

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * How the parent sees a CLI command that a signal ended, once it has cleaned up: exit 128 + the signal's number,
 * but SIGHUP by the signal itself (src/cli/stop-on-signal.ts, exitForSignal; a shell shows 129 either way).
 */
export function endedBy(signal: EndingSignal): Ended {
  return signal === 'SIGHUP' ? { code: null, signal: 'SIGHUP' } : { code: ENDING_SIGNALS[signal], signal: null };
}

/** Resolves with how `child` ended. */
export function closeOf(child: { once(event: 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown }): Promise<Ended> {
  return new Promise((done) => child.once('close', (code, signal) => done({ code, signal })));
}

export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  closed: Promise<Ended>;
}

/** `node --import tsx src/cli/bin.ts <args>` from the repository root, NO_COLOR, `env` over this process's. */
export function cliProcess(args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  return { child, stdout: () => stdout, stderr: () => stderr, closed: closeOf(child) };
}
