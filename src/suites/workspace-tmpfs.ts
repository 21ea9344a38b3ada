/**
 * A run without --workspace-dir (`faultline run`): the task workspaces go on the
 * RAM-backed tmpfs /dev/shm when that is safe, else in the system temp
 * directory as before. Decided once per run, here; the worker threads get the
 * answer as they get --workspace-dir.
 *
 * Why: each task makes a directory, writes its fixture, has the edit tool
 * write a new file and rename it over the old one, and removes it all; on a
 * disk file system that is journal and block work for files nobody keeps
 * (measured on ext4: 0.9 s of a 3.7 s run of the bench's 2,000 tasks; on
 * /dev/shm the run takes 2.8 s).
 *
 * Why only when all of this holds, each rule against a reason not to:
 * - The user chose nothing: no --workspace-dir, and none of TMPDIR, TMP, TEMP
 *   set (who sets them chose where temp files go). Never --keep-workspaces:
 *   kept workspaces outlive the run and belong on disk. Linux only.
 * - /dev/shm is mounted as a tmpfs (the mount table and statfs agree),
 *   writable and searchable by this user, and not noexec: a container's noexec
 *   /dev/shm says it is not meant for this.
 * - A tmpfs is memory (in a container, counted against its limit), so no task
 *   may write an unbounded amount: only faultline's own file tools, no bash,
 *   setup script, hooks, defense modules or MCP servers (suites/task-writes.ts).
 *   Such tasks hold at most their fixture and what their model writes.
 * - It has room: at least 1 GiB free (a container's 64 MB /dev/shm never
 *   qualifies) and at least the largest task's bytes x -j x 4 (an edit's new
 *   file beside the old one, and room to grow).
 * - A memory limit on the process (a container's cgroup, which a tmpfs's
 *   pages are charged to and cannot be reclaimed from) has room too: that
 *   same largest task x -j x 4 is at most a quarter of the limit, so the
 *   workspaces cannot be what pushes the run out of memory.
 * A workspace that cannot be made there after all (the tmpfs filled up or went
 * away) is made in the temp directory, and so is every later one
 * (suites/workspace-place.ts): the task does not fail for it.
 */
import { accessSync, constants, readFileSync, statfsSync } from 'node:fs';
import { totalmem } from 'node:os';
import type { LoadedTask } from './load-suite.js';
import { runWrites, type RunWrites } from './task-writes.js';

export const SHM_DIR = '/dev/shm';
/** statfs f_type of a tmpfs (linux/magic.h). */
export const TMPFS_MAGIC = 0x01021994;
export const MIN_FREE_BYTES = 1024 ** 3;
/** Free space asked per task in flight, as a multiple of its bytes. */
export const SAFETY_FACTOR = 4;

/** What is read from the system about /dev/shm (only when the run's own rules already allow it). */
export interface ShmFacts {
  /** /proc/self/mountinfo, or null when it cannot be read. */
  mountinfo: string | null;
  /** statfs of /dev/shm, or null when it failed. */
  statfs: { type: number; bavail: number; bsize: number } | null;
  /** Writable and searchable by this user. */
  writable: boolean;
  /** The process's memory limit in bytes (process.constrainedMemory), or null when there is none below the machine's memory. */
  memoryLimit: number | null;
}

export interface TmpfsInputs {
  env: Readonly<Record<string, string | undefined>>;
  platform: string;
  workspaceDirGiven: boolean;
  keepWorkspaces: boolean;
  /** The run's tasks (summed only when the rules before them let the run use the tmpfs). */
  writes: () => RunWrites;
  concurrency: number;
  shm: () => ShmFacts;
}

export interface TmpfsChoice {
  /** /dev/shm, or null for the system temp directory. */
  dir: string | null;
  reason: string;
}

const disk = (why: string): TmpfsChoice => ({ dir: null, reason: `workspaces in the temp directory: ${why}` });

/** The last mount at `point` in a mountinfo text: its file system type and per-mount options, or null. */
export function mountAt(mountinfo: string, point: string): { fstype: string; options: string[] } | null {
  let found: { fstype: string; options: string[] } | null = null;
  for (const line of mountinfo.split('\n')) {
    // id parent major:minor root mount-point options [optional fields...] - fstype source super-options
    const fields = line.split(' ');
    const dash = fields.indexOf('-', 6);
    if (dash < 0 || fields.length < dash + 2) continue;
    const at = fields[4]!.replace(/\\([0-7]{3})/g, (_m, octal: string) => String.fromCharCode(parseInt(octal, 8)));
    if (at === point) found = { fstype: fields[dash + 1]!, options: fields[5]!.split(',') };
  }
  return found;
}

export function chooseWorkspaceTmpfs(inputs: TmpfsInputs): TmpfsChoice {
  if (inputs.workspaceDirGiven) return disk('--workspace-dir chooses');
  const set = ['TMPDIR', 'TMP', 'TEMP'].find((name) => inputs.env[name] !== undefined);
  if (set !== undefined) return disk(`${set} is set`);
  if (inputs.keepWorkspaces) return disk('kept workspaces belong on disk');
  if (inputs.platform !== 'linux') return disk(`not Linux (${inputs.platform})`);
  const writes = inputs.writes();
  if (writes.unbounded !== null) return disk(`${writes.unbounded}, which can write without bound`);
  const facts = inputs.shm();
  const mount = facts.mountinfo === null ? null : mountAt(facts.mountinfo, SHM_DIR);
  if (mount === null) return disk(`${SHM_DIR} is not a mount point`);
  if (mount.fstype !== 'tmpfs' || facts.statfs?.type !== TMPFS_MAGIC) return disk(`${SHM_DIR} is not a tmpfs`);
  if (mount.options.includes('noexec')) return disk(`${SHM_DIR} is mounted noexec`);
  if (!facts.writable) return disk(`${SHM_DIR} is not writable by this user`);
  const free = facts.statfs.bavail * facts.statfs.bsize;
  const needed = Math.max(MIN_FREE_BYTES, writes.largestTaskBytes * inputs.concurrency * SAFETY_FACTOR);
  if (free < needed) return disk(`${SHM_DIR} has ${mib(free)} free, less than ${mib(needed)}`);
  const inFlight = writes.largestTaskBytes * inputs.concurrency * SAFETY_FACTOR;
  if (facts.memoryLimit !== null && inFlight > facts.memoryLimit / 4) {
    return disk(`the process may use ${mib(facts.memoryLimit)} of memory, less than 4 x the ${mib(inFlight)} its workspaces may hold`);
  }
  return { dir: SHM_DIR, reason: `workspaces on ${SHM_DIR}: a tmpfs with ${mib(free)} free, and every task writes only through the file tools` };
}

function mib(bytes: number): string {
  return `${Math.floor(bytes / 1024 ** 2)} MiB`;
}

/** Reads /dev/shm's mount, statfs and access (a few syscalls, once per run). */
export function readShmFacts(): ShmFacts {
  let mountinfo: string | null = null;
  let statfs: ShmFacts['statfs'] = null;
  let writable = false;
  try {
    mountinfo = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    // no /proc: not decided here, the rule says disk
  }
  try {
    const s = statfsSync(SHM_DIR);
    statfs = { type: s.type, bavail: s.bavail, bsize: s.bsize };
  } catch {
    // no /dev/shm
  }
  try {
    accessSync(SHM_DIR, constants.W_OK | constants.X_OK);
    writable = true;
  } catch {
    // not ours to use
  }
  return { mountinfo, statfs, writable, memoryLimit: memoryLimit() };
}

/**
 * The cgroup memory limit libuv reads for Node. Node 20 answers 0, or a value at or above the machine's memory
 * (2^64 here: cgroup v1's "no limit"), when there is none.
 */
function memoryLimit(): number | null {
  const limit = process.constrainedMemory?.() ?? 0;
  return limit > 0 && limit < totalmem() ? limit : null;
}

/**
 * The choice for a run of `tasks` given no --workspace-dir. `process.env`, not the CLI's io.env: the temp
 * directory the workspaces would otherwise go to is os.tmpdir(), which reads process.env.
 */
export function runWorkspaceTmpfs(run: { tasks: readonly LoadedTask[]; keepWorkspaces: boolean; concurrency: number }): TmpfsChoice {
  return chooseWorkspaceTmpfs({
    workspaceDirGiven: false,
    keepWorkspaces: run.keepWorkspaces,
    writes: () => runWrites(run.tasks),
    concurrency: run.concurrency,
    env: process.env,
    platform: process.platform,
    shm: readShmFacts,
  });
}
