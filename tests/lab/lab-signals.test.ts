/**
 * `faultline lab` ended by a signal stops the harness and every process it
 * started, removes the session's workspace, ends the trace with run_end and
 * exits 128 + the signal. The harness runs in a process group of its own (so
 * the lab can stop all of it), out of reach of the terminal's Ctrl-C and of a
 * SIGTERM sent to faultline alone: before the lab listened for SIGTERM, a
 * `timeout` or a cancelled CI job left the harness running and its workspace
 * behind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aliveAfter, processesAlive } from '../helpers/live-processes.js';
import { signalWords } from '../../src/cli/stop-on-signal.js';
import { cliProcess, endedBy } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { waitFor } from '../helpers/wait-for.js';
import { PROTOCOL_SUITE } from './lab-run.js';

describe('faultline lab ended by a signal', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${signal}: stops the harness, removes its workspace, ends the trace, ends as the signal asks (${JSON.stringify(endedBy(signal))})`, async () => {
      const dir = tempDir();
      const trace = join(dir, 'lab.jsonl');
      // The "harness": a process that never calls the model, found on the machine by its argument, which the shell
      // computes (so faultline's own command line, which carries the sum's terms, does not match).
      const a = 700_000 + (process.pid % 1000);
      let b = Date.now() % 100_000;
      while (`$((${a}+${b}))`.includes(String(a + b))) b += 1;
      const marker = String(a + b);
      const { child, stderr, closed } = cliProcess(['lab', '--suite', PROTOCOL_SUITE, '--task', 'lab-parallel-reads', '--out', trace, '--', 'sh', '-c', `sleep $((${a}+${b}))`], { TMPDIR: dir });
      try {
        await waitFor(() => processesAlive(marker) > 0, 60_000, 'the harness to start');
        child.kill(signal);
        expect(await closed, stderr()).toEqual(endedBy(signal));
      } finally {
        child.kill('SIGKILL');
      }
      expect(stderr()).toContain(`faultline lab: ${signalWords(signal)}: stopping the harness`);
      expect(await aliveAfter(marker)).toBe(0);
      const events = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; outcome?: string });
      expect(events.find((e) => e.event === 'session_end')).toMatchObject({ outcome: 'aborted' });
      expect(events.at(-1)).toMatchObject({ event: 'run_end', aborted: 1 });
      expect(readdirSync(dir).filter((f) => f.startsWith('faultline-'))).toEqual([]);
    }, 90_000);
  }
});
