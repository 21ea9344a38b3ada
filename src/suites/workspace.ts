/**
 * A task's temporary workspace, filled with its fixture files.
 *
 * `createWorkspace` makes one at once (tests, library callers).
 * `LazyWorkspace` is what the suite runner uses: the path is chosen when the
 * session starts, but nothing touches the disk until the session first needs
 * it (its first tool call, or a `files:` expectation), and removal runs off
 * the event loop. A session that calls no tool never creates a directory, and
 * 10,000 tasks leave nothing behind in the temp directory
 * (tests/suites/workspace-cleanup.test.ts counts).
 */
import { randomFillSync } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, realpathSync, writeFileSync } from 'node:fs';
import { DIR_FLAGS } from '../harness/safe-fs/beneath.js';
import { removeTree, removeTreeSync } from '../harness/safe-fs/remove-tree.js';
import { borrowRoot, pinRoot, unpinRoot } from '../harness/safe-fs/pinned-root.js';
import { closeUnlinked } from '../harness/safe-fs/close-unlinked.js';
import { isInMemoryFs } from '../harness/safe-fs/in-memory-fs.js';
import { acquireDescriptors, isDescriptorShortageError, shortagePause, SHORTAGE_WAIT_MS, type DescriptorLease } from '../harness/safe-fs/fd-budget.js';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';

export const WORKSPACE_PREFIX = 'faultline-ws-';

/**
 * Removals running at once on a thread; the others wait their turn holding no descriptor. Why: the disk's unlinks
 * go through the thread pool (four threads), and sessions end faster than a journaled disk removes their
 * directories: at -j 1000 a thousand removals were pending at once, each holding its workspace's descriptor.
 * More than a few per pool thread removes nothing sooner.
 */
const REMOVALS_AT_ONCE = 64;
let removalsRunning = 0;
const removalQueue: (() => void)[] = [];

/** The root's descriptor for its removal, or undefined when it cannot be opened as a directory (removeTree decides). */
function openRootForRemoval(root: string): number | undefined {
  try {
    return openSync(root, DIR_FLAGS);
  } catch {
    return undefined;
  }
}

/** Removes `root` by name (as removeTree always does) once descriptors were given back; gives up after SHORTAGE_WAIT_MS. */
async function removeWhenDescriptorsFree(root: string): Promise<void> {
  const started = performance.now();
  for (let attempt = 0; performance.now() - started < SHORTAGE_WAIT_MS; attempt++) {
    await shortagePause(attempt);
    const asked = acquireDescriptors(REMOVAL_DESCRIPTORS);
    const lease = asked instanceof Promise ? await asked : asked;
    try {
      await removeTree(root);
      return;
    } catch (error) {
      if (!isDescriptorShortageError(error)) return; // as before: a part it cannot remove stays
    } finally {
      lease.release();
    }
  }
}

/** Descriptors a removal walk holds at once: the root and the level below it (deeper levels are rare and brief). */
const REMOVAL_DESCRIPTORS = 2;

export function createWorkspace(files: Record<string, string> = {}, parent = tmpdir()): string {
  // realpath: on some systems tmpdir is a symlink, and the sandbox compares real paths.
  const root = realpathSync(mkdtempSync(join(parent, WORKSPACE_PREFIX)));
  for (const [path, content] of Object.entries(files)) {
    const full = fixturePath(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return root;
}

/** Never follows a link the model left in the tree (safe-fs/remove-tree.ts); a part it cannot remove stays. */
export function removeWorkspace(root: string): void {
  try {
    removeTreeSync(root);
  } catch {
    // as rmSync with force: a failure to clean up never fails the caller
  }
}

function fixturePath(root: string, path: string): string {
  const full = resolve(root, path);
  if (!full.startsWith(root + sep)) throw new Error(`fixture path ${path} is outside the workspace`);
  return full;
}

/** The real temp directory, resolved once per process and parent (realpath costs a syscall per component). */
const realParents = new Map<string, string>();
function realParent(parent: string): string {
  let real = realParents.get(parent);
  if (real === undefined) {
    try {
      real = realpathSync(parent);
    } catch {
      // A missing parent fails where the workspace is first needed (ensure), naming it; not at set-up.
      return resolve(parent);
    }
    realParents.set(parent, real);
  }
  return real;
}

/** Random bytes for 256 names drawn at once: one call to the generator per 256 sessions instead of one each (3 us each). */
const NAME_BYTES = 12;
const namePool = Buffer.alloc(NAME_BYTES * 256);
let namesUsed = namePool.length;
function randomName(): string {
  if (namesUsed === namePool.length) {
    randomFillSync(namePool);
    namesUsed = 0;
  }
  const name = namePool.toString('base64url', namesUsed, namesUsed + NAME_BYTES);
  namesUsed += NAME_BYTES;
  return name;
}

/**
 * os.tmpdir(), asked again only when TMPDIR, TMP or TEMP changed. Why: each of the three variables it reads goes
 * through a privilege check (getpid, getuid, geteuid, getgid, getegid, capget: 18 syscalls a call with none set),
 * once per session otherwise. The answer depends only on those variables and the process's privileges, which do
 * not change while it runs.
 */
let tmpKey: string | null = null;
let tmpAnswer = '';
function currentTmpdir(): string {
  const env = process.env;
  const key = `${env.TMPDIR ?? '\u0001'}\u0000${env.TMP ?? '\u0001'}\u0000${env.TEMP ?? '\u0001'}`;
  if (key !== tmpKey) {
    tmpAnswer = tmpdir();
    tmpKey = key;
  }
  return tmpAnswer;
}

export class LazyWorkspace {
  /** Absolute real path; exists only after `ensure()`. */
  readonly root: string;
  private creating: Promise<void> | null = null;

  constructor(
    private readonly files: Record<string, string> = {},
    parent = currentTmpdir(),
  ) {
    // 96 random bits: the exclusive mkdir in ensure() fails loudly on the (negligible) collision instead of sharing a directory.
    this.root = join(realParent(parent), WORKSPACE_PREFIX + randomName());
    // Fixture paths are checked now, so a bad suite fails at session set-up as it did before, not at the first tool call.
    for (const path of Object.keys(files)) fixturePath(this.root, path);
  }

  /** True once the directory was (or is being) made. */
  get created(): boolean {
    return this.creating !== null;
  }

  /** Why the workspace could not be made (the session then ends as an error), or null. */
  failure: Error | null = null;

  /** remove() was called: the session is over, and nothing may make the directory again. */
  private removed = false;

  /**
   * Makes the directory and its fixture files, once; later calls wait for the first. After remove() it refuses: a
   * tool body the session abandoned on an abort (harness/pipeline/execute.ts races bodies against the stop) may
   * still ask for the workspace, and making it then left it behind, fixture and all, after an interrupted run.
   */
  ensure(): Promise<void> {
    if (this.removed && this.creating === null) return Promise.reject(new Error(`the session ended: its workspace ${this.root} is not made any more`));
    this.creating ??= this.make().catch((error: unknown) => {
      this.failure = new Error(`could not make the task workspace ${this.root}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      throw this.failure;
    });
    return this.creating;
  }

  /** Removes the directory if it was made (waits for a creation in flight first). Never throws. */
  async remove(): Promise<void> {
    this.removed = true;
    if (this.creating === null) return;
    await this.creating.catch(() => undefined);
    // Past REMOVALS_AT_ONCE the removal waits its turn without its held descriptor (then opens the root by name).
    if (removalsRunning >= REMOVALS_AT_ONCE) {
      this.unpin();
      await new Promise<void>((resolve) => removalQueue.push(resolve));
    }
    removalsRunning += 1;
    try {
      await this.removeNow();
    } finally {
      removalsRunning -= 1;
      removalQueue.shift()?.();
    }
  }

  private async removeNow(): Promise<void> {
    // Emptied through the descriptor the session held (no second open of the root); given back when done.
    const held = borrowRoot(this.root);
    this.unpin();
    // Not held: the walk opens the root and a directory per level, kept while the disk's unlinks are awaited. Those
    // come from the process's descriptor budget (fd-budget.ts); a held root's share was taken when it was pinned.
    let lease: DescriptorLease | null = null;
    let opened: number | undefined;
    let short = false;
    try {
      if (held === undefined) {
        const asked = acquireDescriptors(REMOVAL_DESCRIPTORS);
        lease = asked instanceof Promise ? await asked : asked;
        // Opened as removeTree opens it (O_NOFOLLOW): what is missing, or a link, is left to removeTree.
        opened = openRootForRemoval(this.root);
      }
      // The fixture's top-level files are unlinked without listing the directory first; anything else, a walk.
      await removeTree(this.root, held?.fd ?? opened, this.topNames()).catch((error: unknown) => {
        short = isDescriptorShortageError(error);
      }); // never follows a link the model left (safe-fs/remove-tree.ts)
    } finally {
      // The directory is gone (or, rarely, left): its last close frees it, made on the thread pool on a disk
      // (close-unlinked.ts); in memory that is a few microseconds, made at once (in-memory-fs.ts).
      const onDisk = !isInMemoryFs(dirname(this.root));
      held?.release(onDisk);
      if (opened !== undefined && onDisk) closeUnlinked(opened, lease ?? undefined);
      else {
        if (opened !== undefined) closeSync(opened);
        lease?.release();
      }
    }
    // Out of descriptors (a holder outside the budget, or another process): the directory must still go.
    if (short) await removeWhenDescriptorsFree(this.root);
  }

  /** The fixture's files directly in the root (plain names). */
  private topNames(): string[] {
    const names: string[] = [];
    for (const path of Object.keys(this.files)) {
      const rel = relative(this.root, fixturePath(this.root, path));
      if (rel !== '' && !rel.includes(sep)) names.push(rel);
    }
    return names;
  }

  /** Stops holding the directory open (pinned-root.ts); the session's walks are over. Idempotent. */
  unpin(): void {
    unpinRoot(this.root);
  }

  /**
   * Synchronous calls in an async function (a failure still rejects): a fixture is a few small files, and the
   * promise API's file handles and thread-pool round trips cost twice the CPU of the calls themselves
   * (0.10 against 0.05 ms per one-file workspace, 2,000 made 32 at a time).
   */
  private async make(): Promise<void> {
    mkdirSync(this.root, { mode: 0o700 }); // not recursive: an existing directory is an error, never shared
    // Held open for the session: its walks start from this descriptor instead of opening the root by name each time.
    try {
      pinRoot(this.root);
    } catch {
      // out of descriptors: the walks open the root by name, as without a pin
    }
    const dirs = new Set<string>();
    for (const path of Object.keys(this.files)) {
      const dir = dirname(fixturePath(this.root, path));
      if (dir !== this.root) dirs.add(dir);
    }
    for (const dir of dirs) mkdirSync(dir, { recursive: true });
    for (const [path, content] of Object.entries(this.files)) writeFileSync(fixturePath(this.root, path), content);
  }
}
