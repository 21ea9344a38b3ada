/**
 * Runs one shell command in its own process group and collects its output.
 * The group matters: `bash -c "make"` spawns grandchildren, and killing only
 * bash would leave them running and holding our pipes open. Timeout and abort
 * kill the whole group (SIGTERM, then SIGKILL after a short grace), and when
 * the call returns whatever is left in the group (background jobs) is killed.
 * A process that left the group (`setsid`, `set -m`) dies too: the sandbox or
 * a PID namespace takes it with the shell, and the call's process tracker
 * (call-processes.ts) finds and kills what is left, and kills the call when
 * it runs more than MAX_CALL_PROCESSES processes at once or its processes
 * hold more than MAX_CALL_MEMORY_BYTES of resident memory together.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { noSandbox, type CommandSandbox } from '../sandbox/sandbox.js';
import { MAX_CALL_MEMORY_BYTES, MAX_CALL_PROCESSES, trackCall } from './call-processes.js';

export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Output kept in memory at most; the rest is counted and dropped (a runaway `yes` must not exhaust memory). */
  maxCaptureBytes?: number;
  /** How to start `bash -c` (the OS sandbox); absent = bash as the harness user (noSandbox). */
  sandbox?: CommandSandbox | null;
  /** Processes the command may run at once (default MAX_CALL_PROCESSES). */
  maxProcesses?: number;
  /** Summed resident memory (RSS) the command's processes may hold (default MAX_CALL_MEMORY_BYTES; Infinity = unbounded). */
  maxMemoryBytes?: number;
}

export interface RunResult {
  /** stdout and stderr interleaved in arrival order, decoded as UTF-8. */
  output: string;
  exitCode: number | null;
  /** Signal name when the process was killed by one (and not by us). */
  signalName: string | null;
  /** Set when we stopped the process ourselves. */
  stoppedBy: 'timeout' | 'aborted' | 'process_limit' | 'memory_limit' | null;
  discardedBytes: number;
  /** For process_limit and memory_limit: what the tracker measured (processes, or bytes) and the bound it exceeded. */
  limit?: { measured: number; bound: number };
}

const DEFAULT_MAX_CAPTURE_BYTES = 8 * 1024 * 1024;
/** Time a stopped group gets to exit on SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 1000;
/** After bash exits, how long to wait for pipes held by leftover background processes. */
export const DRAIN_MS = 250;

export function runCommand(command: string, options: RunOptions): Promise<RunResult> {
  const cap = options.maxCaptureBytes ?? DEFAULT_MAX_CAPTURE_BYTES;
  return new Promise<RunResult>((resolve, reject) => {
    const how = (options.sandbox ?? noSandbox()).spawnArgs(command, options.cwd);
    const maxProcesses = options.maxProcesses ?? MAX_CALL_PROCESSES;
    const maxMemoryBytes = options.maxMemoryBytes ?? MAX_CALL_MEMORY_BYTES;
    let limit: RunResult['limit'];
    const call = trackCall({
      maxProcesses,
      onTooMany: (count) => stop('process_limit', { measured: count, bound: maxProcesses }),
      maxMemoryBytes,
      onTooMuchMemory: (bytes) => stop('memory_limit', { measured: bytes, bound: maxMemoryBytes }),
    });
    const child = spawn(how.file, how.args, {
      cwd: options.cwd,
      env: { ...(how.env ?? process.env), ...call.env },
      detached: true, // own process group, so we can kill the whole tree with -pid
      stdio: ['ignore', 'pipe', 'pipe'], // no stdin: an interactive prompt gets EOF instead of hanging
    });
    const chunks: Buffer[] = [];
    let kept = 0;
    let discarded = 0;
    let stoppedBy: RunResult['stoppedBy'] = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let settled = false;

    const collect = (chunk: Buffer) => {
      const room = cap - kept;
      if (room >= chunk.length) {
        chunks.push(chunk);
        kept += chunk.length;
      } else {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        kept += Math.max(room, 0);
        discarded += chunk.length - Math.max(room, 0);
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);

    const killGroup = (sig: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        // ESRCH: the group is already gone, which is what we wanted
      }
    };
    const stop = (why: NonNullable<RunResult['stoppedBy']>, measured?: RunResult['limit']) => {
      if (stoppedBy !== null || exit !== null) return;
      stoppedBy = why;
      limit = measured;
      if (why === 'process_limit' || why === 'memory_limit') {
        // A fork loop or an allocation loop gets no grace: every process it has, at once.
        killGroup('SIGKILL');
        call.end();
        return;
      }
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    const onAbort = () => stop('aborted');
    options.signal.addEventListener('abort', onAbort, { once: true });

    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      // Whatever bash left running in its group (`server &`, a child that ignored our SIGTERM) dies with the
      // call, now: a session, and a run of 10,000 of them, must leave no process behind. Each call is a fresh
      // shell, so nothing may rely on it. Killed now rather than by the grace timer, which must not fire later
      // at a process group id the system may have handed to someone else.
      clearTimeout(killTimer);
      killGroup('SIGKILL');
      call.end();
      options.signal.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      // bubblewrap (and the PID namespace's init) report a command killed by a signal as exit 128+n, as bash does for `$?`.
      const sandboxSignal = how.statusCarriesSignal === true ? signalOfStatus(exit?.code ?? null) : null;
      resolve({
        output: Buffer.concat(chunks).toString('utf8'),
        exitCode: sandboxSignal ? null : (exit?.code ?? null),
        signalName: stoppedBy === null ? (exit?.signal ?? sandboxSignal) : null,
        stoppedBy,
        discardedBytes: discarded,
        ...(limit === undefined ? {} : { limit }),
      });
    };
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      call.end();
      options.signal.removeEventListener('abort', onAbort);
      reject(error); // bash could not be started: a broken machine, not the model's mistake
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // A background job (`cmd &`) may keep our pipes open forever; do not wait on it. The exit can be handled
      // before the output written ahead of it was read (one SIGCHLD reaps every exited child), so the timer
      // hands over to setImmediate: the pipes are polled once more before the call ends, however long the
      // process stalled in between (a stall used to let the timer run first and drop the output).
      drainTimer = setTimeout(() => setImmediate(finish), DRAIN_MS);
    });
    child.on('close', finish);
    if (options.signal.aborted) stop('aborted');
  });
}

/** `SIGKILL` for 137 and so on; null for other statuses. */
function signalOfStatus(code: number | null): NodeJS.Signals | null {
  if (code === null || code <= 128 || code > 128 + 64) return null;
  const hit = Object.entries(constants.signals).find(([, n]) => n === code - 128);
  return hit ? (hit[0] as NodeJS.Signals) : null;
}
