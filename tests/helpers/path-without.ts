/**
 * A PATH on which one program is missing: every other entry of the current
 * PATH's directories is linked into a temp directory. This is how a machine
 * without bubblewrap looks to faultline's probe (it spawns `bwrap` from PATH),
 * with bash, node and the usual tools still there.
 */
import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.js';

export function pathWithout(program: string, path = process.env.PATH ?? ''): string {
  const dir = tempDir('faultline-path-');
  for (const from of path.split(':').filter((d) => d !== '' && existsSync(d))) {
    let names: string[];
    try {
      names = readdirSync(from);
    } catch {
      continue;
    }
    for (const name of names) {
      if (name === program || existsSync(join(dir, name))) continue;
      symlinkSync(join(from, name), join(dir, name));
    }
  }
  return dir;
}
