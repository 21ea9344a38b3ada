/**
 * Writes a file's new content as a new inode renamed over the old name,
 * inside a directory opened by openDirBeneath (so neither the write nor the
 * rename resolves the directory's path again).
 *
 * Why never in place: a file in the workspace may be one name of an inode
 * with other names outside it — pnpm lays out node_modules as hard links
 * into its content-addressable store, shared by every project on the
 * machine, and an attacker can plant `ln ~/.bashrc x` style links the same
 * way. Writing through such a name changes every other name too. Writing a
 * new file and renaming it over the name changes only this name (what
 * careful editors do: vim's `backupcopy=auto` breaks hard links the same
 * way). It is also atomic: a reader never sees half a file.
 */
import { randomFillSync } from 'node:crypto';
import { closeSync, constants as C, fchmodSync, fstatSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import type { OpenDir } from './beneath.js';

/**
 * Random bytes for 256 temp names drawn at once: one call to the generator per 256 replacements instead of one each
 * (a synchronous randomBytes call costs about 10 us). The name only has to be unguessable enough that nothing else
 * holds it: the create is O_EXCL, so a name taken fails loudly instead of being shared.
 */
const TEMP_BYTES = 6;
const tempPool = Buffer.alloc(TEMP_BYTES * 256);
let tempUsed = tempPool.length;
function tempName(name: string): string {
  if (tempUsed === tempPool.length) {
    randomFillSync(tempPool);
    tempUsed = 0;
  }
  const tag = tempPool.toString('hex', tempUsed, tempUsed + TEMP_BYTES);
  tempUsed += TEMP_BYTES;
  return `.${name.slice(0, 100)}.faultline-${tag}.tmp`;
}

/** Replaces `name` in `dir` with `content`; `mode` is the old file's permission bits (default 0o666 & umask). */
export async function replaceFile(dir: OpenDir, name: string, content: string | Uint8Array, options: { mode?: number; signal?: AbortSignal } = {}): Promise<void> {
  const temp = tempName(name);
  const handle = await open(dir.at(temp), C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 0o666);
  let renamed = false;
  try {
    await handle.writeFile(content, { signal: options.signal });
    if (options.mode !== undefined) await handle.chmod(options.mode & 0o7777);
    await handle.close();
    // rename(2) never follows the last component: a link swapped in at `name` is replaced, not written through.
    await rename(dir.at(temp), dir.at(name));
    renamed = true;
  } finally {
    await handle.close().catch(() => undefined);
    if (!renamed) await unlink(dir.at(temp)).catch(() => undefined);
  }
}

/**
 * replaceFile for small content, synchronously: the same new inode opened O_EXCL|O_NOFOLLOW, the same rename
 * over the name. Each step is a local metadata call or a small write of microseconds, where the thread pool's
 * round trip per step cost more than the step; callers keep the async replaceFile for large content.
 */
export function replaceFileSync(dir: OpenDir, name: string, content: string | Uint8Array, options: { mode?: number } = {}): void {
  const temp = tempName(name);
  // Created with the old file's permission bits already (the umask may still take some away): the fchmod, a
  // change to the disk, is then needed only when the new file did not come out with exactly the old mode.
  const fd = openSync(dir.at(temp), C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, options.mode === undefined ? 0o666 : options.mode & 0o777);
  let renamed = false;
  let open = true;
  try {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    if (options.mode !== undefined && (fstatSync(fd).mode & 0o7777) !== (options.mode & 0o7777)) fchmodSync(fd, options.mode & 0o7777);
    open = false;
    closeSync(fd);
    // rename(2) never follows the last component: a link swapped in at `name` is replaced, not written through.
    renameSync(dir.at(temp), dir.at(name));
    renamed = true;
  } finally {
    if (open) closeSync(fd);
    if (!renamed) {
      try {
        unlinkSync(dir.at(temp));
      } catch {
        // already gone
      }
    }
  }
}

/** Creates `name` in `dir` exclusively (never through an existing entry or link) and writes it. */
export async function createExclusive(dir: OpenDir, name: string, content: string | Uint8Array): Promise<void> {
  const handle = await open(dir.at(name), C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}
