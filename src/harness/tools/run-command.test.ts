/**
 * runCommand keeps what a command printed before it exited, however the
 * event loop is scheduled. The exit of one child can be seen before its
 * output was read: libuv reaps every exited child when it handles one
 * SIGCHLD, so a command that printed and exited while the loop was busy with
 * another child's output has its exit handled in that batch and its output
 * only at the next poll. If the process then stalls past the drain time, the
 * drain timer runs before that poll. Seen once in CI as a `cat` that "printed
 * nothing" (exit 0), which the model then read as a failed fix.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DRAIN_MS, runCommand } from './run-command.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Blocks the event loop (what a loaded machine or a long GC does to it). */
function busy(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end);
}

function busyUntil(path: string, thenMs: number): void {
  const give = Date.now() + 10_000;
  while (!existsSync(path) && Date.now() < give);
  busy(thenMs); // the process exits just after it made the file
}

describe('runCommand', () => {
  // The busy-waits block the loop, so the timeout only matters on a very slow machine (waiting up to 10 s for a marker).
  it("keeps the output of a command whose exit is handled before its output is read, even when the loop then stalls past the drain time", { timeout: 60_000 }, async () => {
    const ws = mkdtempSync(join(tmpdir(), 'faultline-run-command-'));
    dirs.push(ws);
    writeFileSync(join(ws, 'greeting.txt'), 'Hello, world!\n');
    // The command under test prints once `go` exists, then exits.
    const run = runCommand('while [ ! -e go ]; do sleep 0.005; done; cat greeting.txt; touch printed', {
      cwd: ws,
      timeoutMs: 30_000,
      signal: new AbortController().signal,
    });
    // Another child of this process (another session's command, an MCP server) prints and exits while the loop is busy,
    // so the next poll sees its output and its SIGCHLD together.
    const other = spawn('sh', ['-c', 'echo x; touch other-done'], { cwd: ws, stdio: ['ignore', 'pipe', 'ignore'] });
    other.stdout.on('data', () => {
      // Its output is handled first in that batch; meanwhile the command prints and exits, so the SIGCHLD handled
      // next in the same batch reaps it too, before its output is polled.
      writeFileSync(join(ws, 'go'), '');
      busyUntil(join(ws, 'printed'), 100);
      // After that batch the process stalls longer than the drain time, before the loop polls again.
      setImmediate(() => busy(DRAIN_MS + 150));
    });
    busyUntil(join(ws, 'other-done'), 100);
    const result = await run;
    expect(result).toMatchObject({ exitCode: 0, output: 'Hello, world!\n', stoppedBy: null });
  });
});
