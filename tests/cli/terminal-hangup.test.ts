/**
 * A real hang-up: `faultline run` started from a terminal that goes away (its window closed, the SSH connection
 * lost). The terminal here is a pseudo-terminal made by util-linux's `script`; killing `script` closes its master
 * side, so the kernel hangs the terminal up: the session's leader, a shell as in a login, gets SIGHUP and sends it
 * on to its job, as an interactive shell does, and every later write to the terminal fails with EIO.
 *
 * Before: the line saying the run is being stopped met EIO, the process died, and the run's workspaces stayed in
 * the temp directory with the trace cut short; after the clean-up Node's own exit aborted (SIGABRT) restoring the
 * settings of a terminal that is gone. Now: the sessions end aborted, their workspaces are removed, the trace ends
 * with run_end, and the process ends by SIGHUP, status 129 to the shell (src/cli/stop-on-signal.ts,
 * src/cli/closed-output.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';
import { waitFor } from '../helpers/wait-for.js';
import { slowSuite } from './slow-suite.js';

const hasScript = spawnSync('script', ['--version']).status === 0;

/** The login shell's part: start the run as a job, and on SIGHUP send it on, wait for the job and keep its status. */
const JOB = `"$FAULTLINE_NODE" --import tsx src/cli/bin.ts run "$SUITE" --out "$TRACE" -j 4 &
child=$!
trap 'kill -HUP $child; wait $child; echo $? > "$STATUS"; exit 0' HUP
wait $child
echo $? > "$STATUS"
`;

describe('the terminal of a run hangs up', () => {
  // util-linux is essential on Debian, the CI's system; elsewhere say why nothing ran.
  it.skipIf(!hasScript && process.env.CI !== 'true')('the run ends its sessions, removes their workspaces, ends the trace and exits 129', async () => {
    const dir = tempDir();
    const files = { SUITE: join(dir, 'slow.yaml'), TRACE: join(dir, 'run.jsonl'), STATUS: join(dir, 'status') };
    writeFileSync(files.SUITE, slowSuite(60_000, 8));
    writeFileSync(join(dir, 'job.sh'), JOB);
    const terminal = spawn('script', ['-qfec', `exec sh ${join(dir, 'job.sh')}`, '/dev/null'], {
      cwd: process.cwd(),
      stdio: 'ignore',
      env: { ...process.env, ...files, FAULTLINE_NODE: process.execPath, TMPDIR: dir, SHELL: '/bin/sh', NO_COLOR: '1' },
    });
    const workspaces = () => readdirSync(dir).filter((f) => f.startsWith('faultline-ws-'));
    try {
      await waitFor(() => workspaces().length === 4, 60_000, '4 running sessions');
      terminal.kill('SIGKILL');
      await waitFor(() => existsSync(files.STATUS) && readFileSync(files.STATUS, 'utf8').endsWith('\n'), 30_000, 'the run to end');
    } finally {
      terminal.kill('SIGKILL');
    }
    expect(readFileSync(files.STATUS, 'utf8').trim()).toBe('129');
    const events = readFileSync(files.TRACE, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; outcome?: string });
    expect(events.filter((e) => e.event === 'session_end').map((e) => e.outcome)).toEqual(['aborted', 'aborted', 'aborted', 'aborted']);
    expect(events.at(-1)).toMatchObject({ event: 'run_end', aborted: 4 });
    expect(workspaces()).toEqual([]);
  }, 120_000);
});
