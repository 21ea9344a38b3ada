/**
 * Writes a full over-limit result to the session's spill directory. The
 * directory sits inside the workspace (`.faultline/spill/`) because the only
 * way the model can get the omitted part back is the `read` tool, which is
 * confined to the workspace; writes there by the model are refused by the
 * protected-path table (`.faultline/`), reads pass.
 *
 * Being in the model's tree, the directory is opened (and made) without
 * following a link at any component, and the file is created exclusively
 * with O_NOFOLLOW (safe-fs/state-dir.ts): a `.faultline` or `spill` link
 * planted by the model or the repository makes the spill fail ("could not
 * be saved"), never land outside the workspace.
 *
 * Names are `t<turn>-<tool_use_id>.txt` (id sanitized), so a spill can be
 * found from the trace; a repeated id gets `-2`, `-3`... (never overwritten).
 */
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { openStateDir } from '../safe-fs/state-dir.js';
import { createExclusive } from '../safe-fs/replace-file.js';

export async function writeSpill(workspace: string, dir: string, turn: number, toolUseId: string, text: string): Promise<string> {
  const opened = await openStateDir(workspace, await realpath(workspace), dir);
  try {
    const base = `t${turn}-${toolUseId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'call'}`;
    for (let n = 1; ; n++) {
      const name = n === 1 ? `${base}.txt` : `${base}-${n}.txt`;
      try {
        await createExclusive(opened, name, text);
        return join(dir, name);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n > 1000) throw error;
      }
    }
  } finally {
    await opened.handle.close();
  }
}
