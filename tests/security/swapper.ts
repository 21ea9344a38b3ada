/**
 * A process standing in for a background process of the model: it swaps a
 * workspace directory `d` between a real directory (`dreal`) and a symlink
 * to outside (`dlink`), as fast as it can, so a check of `d` and a later use
 * of `d` by name can see different things.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Renames `dlink` and `dreal` in and out of `d`, forever; a `d` someone else
 * made (write makes missing parents) is removed so the swap goes on.
 */
const SWAPPER = `
const fs = require('fs'); const ws = process.argv[1];
const mv = (a, b) => { try { fs.renameSync(ws + '/' + a, ws + '/' + b); } catch {} };
for (;;) {
  mv('dlink', 'd'); mv('d', 'dlink'); mv('dreal', 'd'); mv('d', 'dreal');
  try { if (fs.existsSync(ws + '/dreal') && fs.lstatSync(ws + '/d').isDirectory()) fs.rmSync(ws + '/d', { recursive: true }); } catch {}
}
`;

export function startSwapper(workspace: string): ChildProcess {
  return spawn(process.execPath, ['-e', SWAPPER, workspace], { stdio: 'ignore' });
}

export async function stopSwapper(swapper: ChildProcess): Promise<void> {
  if (swapper.exitCode !== null || swapper.signalCode !== null) return;
  const exited = new Promise((resolve) => swapper.once('exit', resolve));
  swapper.kill('SIGKILL');
  await exited;
}
