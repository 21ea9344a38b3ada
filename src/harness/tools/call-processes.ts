/**
 * Every process one bash call starts, however it detaches. A process group
 * is not enough: `setsid`, `set -m` and `timeout … &` each leave the group,
 * and without the OS sandbox (or a PID namespace) nothing else ties them to
 * the call. Each call's environment carries a random marker; a shared
 * poller scans /proc and counts a process as the call's when its
 * environment holds the marker, when its parent is already the call's (so
 * `env -i` does not shake it off while its parent lives), or when it lives
 * in a PID namespace one of the call's processes lives in (bubblewrap's, or
 * `unshare --pid`'s). The poller bounds how many processes a call may have
 * (a fork loop costs the call, not the run) and the resident memory they
 * hold together (an allocation loop costs the call, not the machine: the
 * harness and every other call run beside it), and the call's end kills
 * what is left. Memory is bounded by measured RSS, not by an address-space
 * rlimit: node and JVMs reserve far more virtual memory than they touch, and
 * `ulimit -v` breaks them.
 *
 * Only on Linux (/proc); elsewhere the tracker finds nothing and the
 * process group is the only tie, as the README says.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from 'node:fs';

export const CALL_MARKER_VARIABLE = 'FAULTLINE_CALL';
/** Processes one call may run at once; more kills the call. Builds (`make -j`, test runners) stay far below. */
export const MAX_CALL_PROCESSES = 256;
/**
 * Resident memory (summed RSS) one call's processes may hold at once; more kills the call. A build or test run
 * (tsc, a JVM, a linker) stays below; a loop that allocates without end does not.
 */
export const MAX_CALL_MEMORY_BYTES = 4 * 1024 ** 3;
const POLL_MS = 100;

interface Tracked {
  readonly marker: string;
  /** `pid:starttime` of the call's processes seen so far. */
  readonly members: Set<string>;
  readonly maxProcesses: number;
  readonly onTooMany: (count: number) => void;
  readonly maxMemoryBytes: number;
  readonly onTooMuchMemory: (bytes: number) => void;
}

const active = new Map<string, Tracked>();
let timer: NodeJS.Timeout | undefined;
let ownNamespace: string | null | undefined;

export interface CallHandle {
  readonly marker: string;
  /** The environment variable to add to the command's environment. */
  readonly env: Record<string, string>;
  /** Kills every process of the call still alive, then stops tracking it; returns how many it killed. */
  end(): number;
}

export interface TrackOptions {
  /** Processes the call may run at once (default MAX_CALL_PROCESSES). */
  maxProcesses?: number;
  onTooMany: (count: number) => void;
  /** Summed RSS the call's processes may hold (default MAX_CALL_MEMORY_BYTES; Infinity = unbounded). */
  maxMemoryBytes?: number;
  onTooMuchMemory?: (bytes: number) => void;
}

export function trackCall(options: TrackOptions): CallHandle {
  const marker = randomBytes(12).toString('hex');
  const tracked: Tracked = {
    marker,
    members: new Set(),
    maxProcesses: options.maxProcesses ?? MAX_CALL_PROCESSES,
    onTooMany: options.onTooMany,
    maxMemoryBytes: options.maxMemoryBytes ?? MAX_CALL_MEMORY_BYTES,
    onTooMuchMemory: options.onTooMuchMemory ?? (() => {}),
  };
  active.set(marker, tracked);
  if (timer === undefined && process.platform === 'linux') {
    timer = setInterval(poll, POLL_MS);
    timer.unref();
  }
  return {
    marker,
    env: { [CALL_MARKER_VARIABLE]: marker },
    end() {
      let killed = 0;
      // A process may fork between the scan and the kill: scan again until nothing of the call is left.
      for (let round = 0; round < 20; round += 1) {
        const left = membersNow(tracked, readTable());
        if (left.length === 0) break;
        for (const pid of left) {
          try {
            process.kill(pid, 'SIGKILL');
            killed += 1;
          } catch {
            // gone already
          }
        }
      }
      active.delete(marker);
      if (active.size === 0 && timer !== undefined) {
        clearInterval(timer);
        timer = undefined;
        facts.clear();
      }
      return killed;
    },
  };
}

interface ProcRow {
  readonly pid: number;
  readonly ppid: number;
  readonly key: string;
}

interface ProcFacts {
  /** The call marker in its environment (as of the first look), or null. */
  readonly marker: string | null;
  readonly ns: string | null;
}

/** What each process is, read once per process (`pid:starttime`): a poll reads only what is new. */
const facts = new Map<string, ProcFacts>();
const MARKER_PREFIX = Buffer.from(`${CALL_MARKER_VARIABLE}=`);

function readTable(): ProcRow[] {
  if (process.platform !== 'linux') return [];
  const rows: ProcRow[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const n of names) {
    if (n.charCodeAt(0) < 48 || n.charCodeAt(0) > 57) continue;
    try {
      const stat = readFileSync(`/proc/${n}/stat`, 'latin1');
      // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      rows.push({ pid: Number(n), ppid: Number(fields[1]), key: `${n}:${fields[19]}` });
    } catch {
      // exited while we looked
    }
  }
  return rows;
}

function factsOf(row: ProcRow): ProcFacts {
  let f = facts.get(row.key);
  if (f === undefined) {
    f = { marker: markerOf(row.pid), ns: namespaceOf(row.pid) };
    // A child of the harness seen between fork and exec still has the harness's environment: look again next time.
    if (f.marker !== null || row.ppid !== process.pid) facts.set(row.key, f);
  }
  return f;
}

function namespaceOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return null;
  }
}

function markerOf(pid: number): string | null {
  let env: Buffer;
  try {
    env = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return null;
  }
  for (let at = 0; at < env.length; ) {
    const end = env.indexOf(0, at);
    const stop = end === -1 ? env.length : end;
    if (env.subarray(at, at + MARKER_PREFIX.length).equals(MARKER_PREFIX)) return env.subarray(at + MARKER_PREFIX.length, stop).toString('latin1');
    at = stop + 1;
  }
  return null;
}

/** Adds every process of the call in `rows` to its members and returns their pids (the harness itself never). */
function membersNow(t: Tracked, rows: readonly ProcRow[]): number[] {
  if (ownNamespace === undefined) ownNamespace = namespaceOf(process.pid);
  const byPid = new Map(rows.map((r) => [r.pid, r]));
  const pids: number[] = [];
  const seen = new Set<string>();
  // PID namespaces (by inode link) the call's processes live in now, other than ours. Never kept from an earlier
  // scan: once a namespace's last process is gone its inode number is free, and the kernel hands it to the next
  // one made, another call's sandbox, whose processes this call's end would then kill.
  const namespaces = new Set<string>();
  const isMember = (r: ProcRow): boolean => {
    if (r.pid === process.pid) return false;
    if (t.members.has(r.key)) return true;
    const parent = byPid.get(r.ppid);
    if (parent !== undefined && parent.pid !== process.pid && t.members.has(parent.key)) return true;
    const f = factsOf(r);
    return f.marker === t.marker || (f.ns !== null && namespaces.has(f.ns));
  };
  // Parents before children (pids mostly grow), twice so a child listed before its parent is caught too.
  for (let pass = 0; pass < 2; pass += 1) {
    for (const r of rows) {
      if (seen.has(r.key) || !isMember(r)) continue;
      seen.add(r.key);
      t.members.add(r.key);
      pids.push(r.pid);
      const ns = factsOf(r).ns;
      if (ns !== null && ns !== ownNamespace) namespaces.add(ns);
    }
  }
  return pids;
}

function poll(): void {
  if (active.size === 0) return;
  const rows = readTable();
  // Forget the dead (the key carries the start time, so a reused pid is a new key; this only bounds the sets).
  const liveKeys = new Set(rows.map((r) => r.key));
  for (const k of facts.keys()) if (!liveKeys.has(k)) facts.delete(k);
  for (const t of active.values()) {
    const live = membersNow(t, rows);
    for (const k of t.members) if (!liveKeys.has(k)) t.members.delete(k);
    if (live.length > t.maxProcesses) {
      t.onTooMany(live.length);
      continue;
    }
    if (Number.isFinite(t.maxMemoryBytes)) {
      const bytes = residentBytes(live);
      if (bytes > t.maxMemoryBytes) t.onTooMuchMemory(bytes);
    }
  }
}

/**
 * Summed resident memory of `pids` (each listed once; /proc lists a process, not its threads, so a threaded
 * process counts once too). Field 2 of /proc/<pid>/statm, in pages: one short read per process per poll.
 * Pages shared between processes (libraries, fork's copy-on-write) count in each: the sum errs high, never low.
 */
export function residentBytes(pids: readonly number[]): number {
  let pages = 0;
  for (const pid of pids) {
    let fd: number | undefined;
    try {
      // open/read/close into one reused buffer: a third of readFileSync's cost (no fstat, no allocation).
      fd = openSync(`/proc/${pid}/statm`, 'r');
      const n = readSync(fd, statmBuffer, 0, statmBuffer.length, 0);
      const statm = statmBuffer.toString('latin1', 0, n);
      const at = statm.indexOf(' ');
      pages += Number(statm.slice(at + 1, statm.indexOf(' ', at + 1))) || 0;
    } catch {
      // exited while we looked
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  return pages * pageSize();
}

/** statm is seven decimal numbers: far below 256 bytes. */
const statmBuffer = Buffer.alloc(256);

let pageBytes: number | undefined;
/** The kernel's page size, from the auxiliary vector (AT_PAGESZ); 4096 when it cannot be read. */
function pageSize(): number {
  if (pageBytes !== undefined) return pageBytes;
  pageBytes = 4096;
  try {
    const auxv = readFileSync('/proc/self/auxv');
    for (let at = 0; at + 16 <= auxv.length; at += 16) {
      const type = auxv.readBigUInt64LE(at);
      if (type === 0n) break;
      if (type === 6n) {
        pageBytes = Number(auxv.readBigUInt64LE(at + 8));
        break;
      }
    }
  } catch {
    // keep 4096
  }
  return pageBytes;
}
