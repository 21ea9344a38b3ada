/** Commands run under a low descriptor limit, soft and hard (Node raises its soft limit only up to the hard one). */
import { spawnSync } from 'node:child_process';

/** `argv` under `limit` descriptors: prlimit when the machine has it, else the shell's ulimit. */
export function underDescriptorLimit(limit: number, argv: string[]): [string, string[]] {
  if (spawnSync('prlimit', ['--version'], { stdio: 'ignore' }).status === 0) return ['prlimit', [`--nofile=${limit}:${limit}`, ...argv]];
  return ['bash', ['-c', `ulimit -n ${limit} && exec "$@"`, 'bash', ...argv]];
}
