/**
 * `faultline mock-server` runs until it is asked to end: Ctrl-C or SIGTERM (a service manager, `timeout`) closes
 * the server and exits 0. (SIGHUP closes it too and then ends the process by the signal, which from outside looks
 * as the signal's default did before, so it is not a case here.) The real CLI as a subprocess, real signals.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProcess } from '../helpers/cli-process.js';
import { waitFor } from '../helpers/wait-for.js';

const suite = join(import.meta.dirname, '../../suites/faults/protocol/006-rate-limited-429-retry-after.yaml');

describe('faultline mock-server ended by a signal', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal}: closes the server and exits 0`, async () => {
      const { child, stdout, stderr, closed } = cliProcess(['mock-server', '--suite', suite, '--task', 'protocol-006-rate-limited-429-retry-after-ms', '--json']);
      try {
        await waitFor(() => stdout().includes('\n'), 60_000, 'the server to listen');
        const { origin } = JSON.parse(stdout().split('\n')[0]!) as { origin: string };
        expect((await fetch(`${origin}/`, { method: 'HEAD' })).status).toBe(200);
        child.kill(signal);
        expect(await closed, stderr()).toEqual({ code: 0, signal: null });
        await expect(fetch(`${origin}/`, { method: 'HEAD' })).rejects.toThrow();
      } finally {
        child.kill('SIGKILL');
      }
    }, 90_000);
  }
});
