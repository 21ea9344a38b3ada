/**
 * The OS sandbox under `bash`: which one runs a session's commands, chosen
 * by `--sandbox required|auto|off` (default auto). `auto` uses bubblewrap
 * when it works on this machine and says so when it does not; `required`
 * fails the task instead of running without it; `off` runs commands as the
 * harness user. Whether bubblewrap works is probed once per process (a real
 * `bwrap ... true` with the same layout), because a binary that exists may
 * still be unusable (no user namespaces in a container, for instance).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import * as path from 'node:path';
import { bwrapArgs, type BwrapLayout } from './bwrap-args.js';
import type { CommandSandbox } from './command-sandbox.js';
import { commandEnv } from './command-env.js';
import { namespacedBash } from './pid-namespace.js';

export const SANDBOX_MODES = ['required', 'auto', 'off'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];
// The interface the bash tool sees lives in command-sandbox.ts, so the tool types need not import this file (and its bubblewrap layout).
export type { CommandSandbox, SandboxKind } from './command-sandbox.js';

export interface SandboxChoice {
  readonly mode: SandboxMode;
  readonly sandbox: CommandSandbox;
  /** Why there is no sandbox (auto on a machine without a working bubblewrap), or null. */
  readonly note: string | null;
}

export class SandboxUnavailableError extends Error {
  readonly code = 'SANDBOX_UNAVAILABLE';
}

export interface SandboxOptions {
  readonly workspace: string;
  /** The session's home directory (hidden inside the sandbox, with the harness user's own). */
  readonly homeDir?: string;
  readonly network?: boolean;
  readonly writable?: readonly string[];
  /** For tests: the bubblewrap binary (default `bwrap` on PATH). */
  readonly bwrap?: string;
}

/**
 * Runs commands as the harness user, in a PID namespace of their own when the machine allows one, with the
 * command environment's allow list (of `env`, default the harness's own; tests give a throwaway HOME).
 */
export function noSandbox(env?: NodeJS.ProcessEnv, options: { pidNamespace?: boolean } = {}): CommandSandbox {
  // Filtered at the first command, not per session: most sessions never run one (it was ~1% of a run's CPU).
  let filtered: NodeJS.ProcessEnv | undefined;
  return { kind: 'none', spawnArgs: (command) => ({ ...namespacedBash(command, options.pidNamespace ?? true), env: (filtered ??= commandEnv(env ?? process.env)) }) };
}

export function bubblewrap(options: SandboxOptions): CommandSandbox {
  const file = options.bwrap ?? 'bwrap';
  const layout: BwrapLayout = {
    workspace: options.workspace,
    writable: options.writable,
    homes: [options.homeDir ?? homedir(), homedir()],
    network: options.network ?? false,
  };
  let env: NodeJS.ProcessEnv | undefined;
  return { kind: 'bubblewrap', spawnArgs: (command, cwd) => ({ file, args: bwrapArgs(layout, command, cwd), env: (env ??= commandEnv()), statusCarriesSignal: true }) };
}

const probes = new Map<string, string | null>();

/**
 * Why a probe could not run that says nothing of bubblewrap: the process or the machine was out of descriptors,
 * processes or memory for the moment, or too busy to finish it. Taken as no verdict: a run at a high -j would
 * otherwise run every later session's commands without a sandbox because one probe met a descriptor shortage.
 */
const PASSING_SHORTAGE = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'ENOMEM', 'ETIMEDOUT']);

/**
 * Null when bubblewrap runs a command here, else why not. Probed once per binary per process; a probe that met a
 * passing shortage (PASSING_SHORTAGE) is no verdict: it answers null, so the session's commands still go through
 * bubblewrap (and fail there if the shortage lasts, never run outside it), and the next session probes again.
 */
export function bubblewrapProblem(bwrap = 'bwrap'): string | null {
  const cached = probes.get(bwrap);
  if (cached !== undefined) return cached;
  const dir = mkdtempSync(path.join(tmpdir(), 'faultline-sandbox-probe-'));
  let problem: string | null = null;
  try {
    const args = bwrapArgs({ workspace: dir, homes: [homedir()] }, 'exit 0');
    const r = spawnSync(bwrap, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
    const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
    if (code !== undefined && PASSING_SHORTAGE.has(code)) return null;
    if (r.error) problem = code === 'ENOENT' ? `${bwrap} is not installed (Debian package bubblewrap)` : `${bwrap} could not start: ${r.error.message}`;
    else if (r.status !== 0) problem = `${bwrap} failed here (exit ${r.status}): ${r.stderr.toString().trim().slice(0, 200)}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  probes.set(bwrap, problem);
  return problem;
}

/** The sandbox a session runs bash in. `required` without a working bubblewrap throws SandboxUnavailableError. */
export function chooseSandbox(mode: SandboxMode, options: SandboxOptions): SandboxChoice {
  if (mode === 'off') return { mode, sandbox: noSandbox(), note: null };
  const problem = bubblewrapProblem(options.bwrap);
  if (problem === null) return { mode, sandbox: bubblewrap(options), note: null };
  if (mode === 'required') throw new SandboxUnavailableError(`--sandbox required, but ${problem}`);
  return { mode, sandbox: noSandbox(), note: `no sandbox: ${problem}` };
}
