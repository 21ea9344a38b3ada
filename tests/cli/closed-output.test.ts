/**
 * A reader that goes away (`faultline run suites | head -3`) closes the CLI's stdout. Node fails the next write
 * with EPIPE, and unhandled that ended `run` in the middle: workspaces left in the temp directory, a trace
 * without run_end, exit 1 with a stack. Now the printing stops and the command finishes as it would have
 * (src/cli/closed-output.ts). The real CLI runs as a subprocess whose stdout (and stderr) pipe is closed by the
 * reader before the CLI writes anything, so every write it makes meets EPIPE.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** The CLI from source with its stdout closed by the reader at once (and its stderr too when `closeStderr`). */
function withClosedOutput(args: string[], env: NodeJS.ProcessEnv, closeStderr = false): Promise<Ended> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
  child.stdout.destroy();
  if (closeStderr) child.stderr.destroy();
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stderr })));
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { event: string });

describe('a closed stdout ends the printing, not the command', () => {
  for (const closeStderr of [false, true]) {
    it(`run finishes every task, removes every workspace and ends the trace (stderr ${closeStderr ? 'closed too' : 'open'})`, async () => {
      const dir = tempDir();
      const trace = join(dir, 'run.jsonl');
      const ended = await withClosedOutput(['run', 'suites/demo', '--out', trace], { TMPDIR: dir }, closeStderr);
      expect(ended.stderr).not.toContain('EPIPE');
      expect(ended).toMatchObject({ code: 0, signal: null });
      const events = lines(trace);
      const count = (name: string) => events.filter((e) => e.event === name).length;
      expect(count('session_start')).toBeGreaterThan(0);
      expect(count('session_end')).toBe(count('session_start'));
      expect(count('run_end')).toBe(1);
      expect(readdirSync(dir).filter((name) => name.startsWith('faultline-'))).toEqual([]);
      // The trace is whole (the validator reads every line of it), and a report printed to a closed stdout ends as well.
      for (const command of ['validate', 'report']) {
        const read = await withClosedOutput([command, trace], {});
        expect(read.stderr).not.toContain('EPIPE');
        expect(read).toMatchObject({ code: 0, signal: null });
      }
    }, 120_000);
  }

  for (const args of [['--help'], ['run', '--help']]) {
    it(`\`faultline ${args.join(' ')}\` exits 0, no EPIPE stack`, async () => {
      const ended = await withClosedOutput(args, {});
      expect(ended.stderr).not.toContain('EPIPE');
      expect(ended).toMatchObject({ code: 0, signal: null });
    }, 60_000);
  }
});
