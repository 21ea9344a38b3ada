/**
 * Writes a full over-limit result to the session's spill directory. The
 * directory sits inside the workspace (`.faultline/spill/`) because the only
 * way the model can get the omitted part back is the `read` tool, which is
 * confined to the workspace; writes there by the model are refused by the
 * protected-path table (`.faultline/`), reads pass.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

let counter = 0;

/** The file name: turn, a sanitized tool_use id and a counter (a model may repeat ids). */
export function spillFileName(turn: number, toolUseId: string): string {
  const safe = toolUseId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 48) || 'call';
  return `t${turn}-${safe}-${++counter}.txt`;
}

export async function writeSpill(dir: string, name: string, text: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const full = join(dir, name);
  await writeFile(full, text, 'utf8');
  return full;
}
