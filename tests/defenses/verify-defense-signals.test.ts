/**
 * `faultline verify-defense` ended by a signal stops its running sessions,
 * removes their workspaces and exits 128 + the signal with no verdict (one
 * from part of the runs would mislead). Before it listened, Ctrl-C or a
 * SIGTERM killed it with its sessions' workspaces left in the temp directory.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signalWords } from '../../src/cli/stop-on-signal.js';
import { cliProcess, endedBy } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { waitFor } from '../helpers/wait-for.js';

const workspaces = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('faultline-ws-'));

describe('faultline verify-defense ended by a signal', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${signal}: stops the sessions, removes their workspaces, prints no verdict, ends as the signal asks (${JSON.stringify(endedBy(signal))})`, async () => {
      const dir = tempDir();
      const { child, stdout, stderr, closed } = cliProcess(['verify-defense', '--all'], { TMPDIR: dir });
      try {
        // Sessions are running: their workspaces exist.
        await waitFor(() => workspaces(dir).length > 0, 60_000, 'a session workspace');
        child.kill(signal);
        expect(await closed, stderr()).toEqual(endedBy(signal));
      } finally {
        child.kill('SIGKILL');
      }
      expect(stderr()).toContain(`faultline verify-defense: ${signalWords(signal)}: stopping the running sessions and removing their workspaces; no verdict`);
      expect(stdout()).not.toContain('verified');
      expect(workspaces(dir)).toEqual([]);
    }, 90_000);
  }
});
