/**
 * A fingerprint of the files under a directory (path, size, mtime), to tell
 * whether anything was written between two moments without knowing which
 * command wrote it (a shell pipeline can write anywhere). The harness's own
 * `.faultline/` (spills, snapshots) and `.git/` internals are left out.
 * Returns null when the tree is too big to walk cheaply or cannot be read:
 * callers treat that as "unknown", never as "unchanged".
 */
import { createHash } from 'node:crypto';
import { readdir, lstat } from 'node:fs/promises';
import { join } from 'node:path';

const SKIP = new Set(['.faultline', '.git', 'node_modules']);
export const MAX_FINGERPRINT_ENTRIES = 20_000;

export async function workspaceFingerprint(root: string, maxEntries = MAX_FINGERPRINT_ENTRIES): Promise<string | null> {
  const hash = createHash('sha1');
  let entries = 0;
  const walk = async (dir: string, rel: string): Promise<boolean> => {
    let names: string[];
    try {
      names = (await readdir(dir)).sort();
    } catch {
      return false;
    }
    for (const name of names) {
      if (rel === '' && SKIP.has(name)) continue;
      if (++entries > maxEntries) return false;
      const full = join(dir, name);
      let st;
      try {
        st = await lstat(full);
      } catch {
        continue; // removed while walking: the next walk sees it gone
      }
      hash.update(`${rel}${name}\u0000${st.size}\u0000${st.mtimeMs}\u0000${st.mode}\n`);
      if (st.isDirectory() && !(await walk(full, `${rel}${name}/`))) return false;
    }
    return true;
  };
  return (await walk(root, '')) ? hash.digest('base64') : null;
}
