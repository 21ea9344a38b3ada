/**
 * Processes still alive whose command line carries a marker (zombies, already
 * dead, are not counted): how the security tests see that a call's processes
 * died with it, however they detached.
 */
import { readdirSync, readFileSync } from 'node:fs';

export function processesAlive(marker: string): number {
  let n = 0;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      if (cmd.includes(marker) && !/\) Z /.test(stat)) n += 1;
    } catch {
      // gone between the listing and the read
    }
  }
  return n;
}

/** How many are still alive once `ms` have passed, or as soon as none is. */
export async function aliveAfter(marker: string, ms = 1500): Promise<number> {
  const end = Date.now() + ms;
  let n = processesAlive(marker);
  while (n > 0 && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    n = processesAlive(marker);
  }
  return n;
}
