/**
 * Issue 23, class 9 (memory): a bash call whose processes hold more resident
 * memory than its bound is killed alone, within a poll or two of the /proc
 * tracker, and leaves no process behind; the memory counted is the sum over
 * every process of the call, detached or not. A call under its bound runs
 * as before. With bubblewrap, in a PID namespace, and with neither.
 * Judged by what is alive on the machine after the call.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { bubblewrap, noSandbox, type CommandSandbox } from '../../src/harness/sandbox/sandbox.js';
import { pidNamespacePrefix } from '../../src/harness/sandbox/pid-namespace.js';
import { formatResult } from '../../src/harness/tools/bash.js';
import { runCommand } from '../../src/harness/tools/run-command.js';
import { bwrapOrFail, makeLab, removeLabs } from './lab.js';
import { aliveAfter } from '../helpers/live-processes.js';

afterAll(removeLabs, 180_000);

const MIB = 1024 ** 2;
const bwrap = bwrapOrFail();
const VARIANTS: { name: string; make: (ws: string, home: string) => CommandSandbox; run: boolean }[] = [
  { name: 'bubblewrap', make: (ws, home) => bubblewrap({ workspace: ws, homeDir: home }), run: bwrap },
  { name: 'no sandbox, PID namespace', make: () => noSandbox(), run: pidNamespacePrefix() !== null },
  { name: 'no sandbox, no namespace (/proc tracker)', make: () => noSandbox(undefined, { pidNamespace: false }), run: true },
];

let serial = 0;
/** A marker argument no other process on the machine has. */
function uniqueMark(): string {
  serial += 1;
  return `faultline-mem-${process.pid}-${serial}-${Date.now()}`;
}

/** python3 from the system (the sandbox sees /usr, not a user's pyenv): touches `mib` MiB, says so, then sleeps. */
function hog(mib: number, sleepS: number, mark: string): string {
  return `/usr/bin/python3 -c "import sys, time; b = b'x' * (${mib} << 20); print('holding', flush=True); time.sleep(${sleepS})" ${mark}`;
}

describe.each(VARIANTS.filter((v) => v.run))('$name', (variant) => {
  const run = (command: string, ws: string, home: string, maxMemoryBytes: number, timeoutMs = 30_000) =>
    runCommand(command, { cwd: ws, timeoutMs, signal: new AbortController().signal, sandbox: variant.make(ws, home), maxMemoryBytes });

  it('a call that allocates past its bound is killed alone, soon, and leaves nothing behind', async () => {
    const lab = makeLab();
    const mark = uniqueMark();
    const start = Date.now();
    const hogging = run(hog(300, 60, mark), lab.ws, lab.home, 64 * MIB);
    // Meanwhile another call runs normally: the run goes on.
    const other = await run('echo fine', lab.ws, lab.home, 64 * MIB, 10_000);
    expect(other.output).toBe('fine\n');
    const r = await hogging;
    const ms = Date.now() - start;
    expect(r.stoppedBy).toBe('memory_limit');
    expect(r.limit?.bound).toBe(64 * MIB);
    expect(r.limit?.measured).toBeGreaterThan(64 * MIB);
    // Killed by the tracker (a poll every 100 ms), not by the 60 s sleep or the 30 s timeout; generous for a loaded machine.
    expect(ms).toBeLessThan(8000);
    expect(await aliveAfter(mark)).toBe(0);
    const out = formatResult(r, 30_000);
    expect(out).toMatchObject({ isError: true, errorCode: 'memory_limit' });
    expect(out.content).toMatch(/more than 64 MiB of memory together \(\d+ MiB resident, measured\)/);
  }, 60_000);

  it('the bound is on the sum over the call\'s processes, detached ones included', async () => {
    const lab = makeLab();
    const mark = uniqueMark();
    // Three detached processes of 50 MiB each: each alone is under 96 MiB, together they are not.
    const command = `for i in 1 2 3; do setsid ${hog(50, 60, mark)} & done; wait`;
    const r = await run(command, lab.ws, lab.home, 96 * MIB);
    expect(r.stoppedBy).toBe('memory_limit');
    expect(await aliveAfter(mark)).toBe(0);
  }, 60_000);

  it('a call under its bound runs to the end as before', async () => {
    const lab = makeLab();
    const mark = uniqueMark();
    const r = await run(`${hog(20, 0.5, mark)} && echo done`, lab.ws, lab.home, 128 * MIB);
    expect({ stoppedBy: r.stoppedBy, exitCode: r.exitCode, output: r.output }).toEqual({ stoppedBy: null, exitCode: 0, output: 'holding\ndone\n' });
  }, 60_000);

  it('with the bound off (Infinity) the same allocation runs to its end: the bound, not the machine, killed it above', async () => {
    const lab = makeLab();
    const mark = uniqueMark();
    const r = await run(`${hog(300, 0.5, mark)} && echo done`, lab.ws, lab.home, Infinity);
    expect({ stoppedBy: r.stoppedBy, exitCode: r.exitCode }).toEqual({ stoppedBy: null, exitCode: 0 });
  }, 60_000);
});
