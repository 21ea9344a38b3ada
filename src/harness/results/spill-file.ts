/**
 * Writes a full over-limit result to the session's spill directory. The
 * directory sits inside the workspace (`.faultline/spill/`) because the only
 * way the model can get the omitted part back is the `read` tool, which is
 * confined to the workspace; writes there by the model are refused by the
 * protected-path table (`.faultline/`), reads pass.
 *
 * Names are `t<turn>-<tool_use_id>.txt` (id sanitized), so a spill can be
 * found from the trace; a repeated id gets `-2`, `-3`... (never overwritten).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export async function writeSpill(dir: string, turn: number, toolUseId: string, text: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const base = `t${turn}-${toolUseId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'call'}`;
  for (let n = 1; ; n++) {
    const full = join(dir, n === 1 ? `${base}.txt` : `${base}-${n}.txt`);
    try {
      await writeFile(full, text, { encoding: 'utf8', flag: 'wx' });
      return full;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n > 1000) throw error;
    }
  }
}
