/**
 * Without bubblewrap, each bash call still runs in a PID namespace of its
 * own when the machine lets us make one (`unshare --pid`, with a user
 * namespace when we are not root): when the call's shell ends, the kernel
 * kills every process left in the namespace, whatever it did to detach
 * (`setsid`, `set -m`, `timeout … &`, a double fork with a cleared
 * environment). Probed once per process; where it cannot run, the call's
 * processes are tracked through /proc instead (call-processes.ts), which a
 * process can escape, and the README says so.
 *
 * The first process of a PID namespace ignores signals it has no handler
 * for, so the command does not run as that process: a small bash waits for
 * it and exits with its status (128+n for a signal, as bubblewrap reports).
 */
import { spawnSync } from 'node:child_process';

const NS_FLAGS = ['--pid', '--fork', '--kill-child'];
const INIT = 'bash -c "$1" & wait $!';

let probed: string[] | null | undefined;

/** The unshare arguments that work here (before the program), or null when no PID namespace can be made. */
export function pidNamespacePrefix(): string[] | null {
  if (probed !== undefined) return probed;
  probed = null;
  if (process.platform !== 'linux') return probed;
  for (const extra of [[], ['--user', '--map-current-user']]) {
    const args = [...extra, ...NS_FLAGS];
    const r = spawnSync('unshare', [...args, 'true'], { stdio: 'ignore', timeout: 10_000 });
    if (r.error === undefined && r.status === 0) {
      probed = args;
      break;
    }
  }
  return probed;
}

/** `bash -c command` in a fresh PID namespace when possible (and wanted: tests check the fallback), else plainly. */
export function namespacedBash(command: string, wanted = true): { file: string; args: string[]; statusCarriesSignal: boolean } {
  const prefix = wanted ? pidNamespacePrefix() : null;
  if (prefix === null) return { file: 'bash', args: ['-c', command], statusCarriesSignal: false };
  return { file: 'unshare', args: [...prefix, 'bash', '-c', INIT, 'faultline-call', command], statusCarriesSignal: true };
}
