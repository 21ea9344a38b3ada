/**
 * The process's descriptor limit (RLIMIT_NOFILE), read once. Node raises the
 * soft limit to the hard one at start, so the soft value read after start is
 * what the process may really open.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** What an unlimited limit counts as (more than any run holds). */
const UNLIMITED = 1 << 20;

let cached: number | null = null;

/** RLIMIT_NOFILE's soft value: Linux /proc, else the shell's `ulimit -n`; 1024, the usual default, when neither answers. */
export function softDescriptorLimit(): number {
  cached ??= readLimit();
  return cached;
}

function readLimit(): number {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (m !== null) return m[1] === 'unlimited' ? UNLIMITED : Number(m[1]);
  } catch {
    // not Linux: ask a shell (it inherits this process's limits)
  }
  try {
    const out = execFileSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 }).trim();
    if (out === 'unlimited') return UNLIMITED;
    const n = Number(out);
    if (Number.isInteger(n) && n > 0) return n;
  } catch {
    // no shell
  }
  return 1024;
}
