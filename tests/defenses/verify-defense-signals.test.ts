/**
 * `faultline verify-defense` ended by a signal stops its running sessions,
 * removes their workspaces and exits 128 + the signal with no verdict (one
 * from part of the runs would mislead). Before it listened, Ctrl-C or a
 * SIGTERM killed it with its sessions' workspaces left in the temp directory.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { closeOf, endedBy } from '../helpers/ended-by-signal.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { waitFor } from '../helpers/wait-for.js';

const workspaces = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('faultline-ws-'));

const words = { SIGTERM: 'terminated (SIGTERM)', SIGHUP: 'hung up (SIGHUP)', SIGINT: 'interrupted' } as const;

describe('faultline verify-defense ended by a signal', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${signal}: stops the sessions, removes their workspaces, prints no verdict, ends as the signal asks (${JSON.stringify(endedBy(signal))})`, async () => {
      const dir = tempDir();
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'verify-defense', '--all'], { env: { ...process.env, NO_COLOR: '1', TMPDIR: dir } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const closed = closeOf(child);
      try {
        // Sessions are running: their workspaces exist.
        await waitFor(() => workspaces(dir).length > 0, 60_000, 'a session workspace');
        child.kill(signal);
        expect(await closed, stderr).toEqual(endedBy(signal));
      } finally {
        child.kill('SIGKILL');
      }
      expect(stderr).toContain(`faultline verify-defense: ${words[signal]}: stopping the running sessions and removing their workspaces; no verdict`);
      expect(stdout).not.toContain('verified');
      expect(workspaces(dir)).toEqual([]);
    }, 90_000);
  }
});
