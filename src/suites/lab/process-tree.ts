/**
 * The harness under test as a process tree: started in its own process group
 * (detached), so stopping it takes every process it started with it — a
 * shell, a node child, a `sleep` in the background — and nothing is left
 * behind. Output is kept as a bounded tail for the verdict.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The command could not be started at all (ENOENT, EACCES): the message. */
  spawnError?: string;
}

export interface TreeHandle {
  pid: number | undefined;
  /** Resolves when the process has exited (its children may live on, holding its output open: stop() ends them). */
  ended: Promise<ProcessEnd>;
  /** Last bytes of stdout and stderr. */
  tail(): { stdout: string; stderr: string };
  /** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once the leader is gone. */
  stop(graceMs?: number): Promise<ProcessEnd>;
}

const TAIL_BYTES = 16 * 1024;
/** After the leader exits, how long its output may take to arrive when something else still holds the pipes. */
const OUTPUT_DRAIN_MS = 250;

function keepTail(into: { text: string }, chunk: Buffer): void {
  into.text = (into.text + chunk.toString('utf8')).slice(-TAIL_BYTES);
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already (ESRCH).
  }
}

export function spawnTree(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): TreeHandle {
  const stdout = { text: '' };
  const stderr = { text: '' };
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c: Buffer) => keepTail(stdout, c));
  child.stderr?.on('data', (c: Buffer) => keepTail(stderr, c));
  let settled = false;
  const ended = new Promise<ProcessEnd>((resolve) => {
    child.once('error', (error) => {
      if (settled) return;
      settled = true;
      resolve({ code: null, signal: null, spawnError: error.message });
    });
    // 'exit', not 'close': a background child that inherited the pipes keeps them open after the leader is gone.
    // But the exit can be handled before the output written ahead of it was read (one SIGCHLD reaps every
    // exited child), so the tail is final only after 'close' or, at the latest, one more poll of the pipes
    // after OUTPUT_DRAIN_MS (the setImmediate runs after that poll, however long the process stalled).
    child.once('exit', (code, signal) => {
      const done = () => {
        if (settled) return;
        settled = true;
        clearTimeout(drain);
        resolve({ code, signal });
      };
      const drain = setTimeout(() => setImmediate(done), OUTPUT_DRAIN_MS);
      child.once('close', done);
    });
  });
  return {
    pid: child.pid,
    ended,
    tail: () => ({ stdout: stdout.text, stderr: stderr.text }),
    async stop(graceMs = 1000) {
      // Whatever the leader did, its group may still hold children: always signal the group.
      signalGroup(child, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
      const end = await ended;
      clearTimeout(timer);
      signalGroup(child, 'SIGKILL');
      return end;
    },
  };
}
