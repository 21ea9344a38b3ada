/**
 * `faultline run --workspace-dir <dir>`: the directory the run's task
 * workspaces are made in. Without it they go on the RAM tmpfs /dev/shm when
 * the run qualifies (workspace-tmpfs.ts: no TMPDIR/TMP/TEMP set, no
 * --keep-workspaces, a roomy tmpfs that is not noexec, and no task that can
 * write without bound), else in the system temp directory (TMPDIR).
 *
 * Why a run would choose: each task makes a directory, writes its fixture
 * files, has the edit tool write a new file and rename it over the old name,
 * and removes it all at the end. On a disk file system that is journal and
 * block work for files nobody keeps; on a tmpfs it is not. A suite whose tasks
 * run bash (an `npm install` spends RAM on a tmpfs) can still choose /dev/shm
 * here, and any run can choose the disk. Unlike TMPDIR it moves only the
 * workspaces: the temp directory that commands run by the `bash` tool see
 * stays as it was.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from './io.js';

/** The absolute path of a usable --workspace-dir, or a CliError saying why it is not one. */
export function checkWorkspaceDir(given: string, cwd: string): string {
  const dir = resolve(cwd, given);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`--workspace-dir ${given}: ${code === 'ENOENT' ? 'no such directory' : `cannot be read (${code ?? String(error)})`}`);
  }
  if (!isDirectory) throw new CliError(`--workspace-dir ${given}: not a directory`);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw new CliError(`--workspace-dir ${given}: not writable by this user (workspaces are made in it)`);
  }
  return dir;
}
