/**
 * ls: one directory's entries, sorted, directories marked with a trailing `/`.
 * An empty directory says so explicitly (docs/harness-rules.md#empty-output). The checked directory
 * is opened (checked-file.ts) and listed through that descriptor, never by
 * its name again.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { openDirBeneath, PathChangedError, selfPath } from '../safe-fs/beneath.js';
import { changedOutput } from './checked-file.js';
import { z } from 'zod';
import { byCodeUnit } from './compare.js';
import { abortedOutput, fsErrorFor, fsErrorOutput, isAbortError } from './fs-errors.js';
import type { Tool, ToolOutput } from './tool.js';
import { refusal, resolveWorkspacePath } from './workspace-path.js';

export const LS_MAX_ENTRIES = 1000;

const schema = z.strictObject({
  path: z
    .string()
    .optional()
    .describe('Directory to list, relative to the workspace root (or absolute inside it). Omit for the root.'),
});
export type LsInput = z.infer<typeof schema>;

export const lsTool: Tool<LsInput> = {
  name: 'ls',
  description: 'List the entries of one workspace directory, sorted by name, with directories marked by a trailing "/".',
  usage: [
    '- Lists one level only; use glob to find files at any depth.',
    '- Use ls instead of running ls or find through bash.',
    `- At most ${LS_MAX_ENTRIES} entries are shown; a note says when more exist.`,
  ].join('\n'),
  inputSchema: schema,
  readOnly: true,
  isConcurrencySafe: () => true,
  emptyText: '(the directory is empty)',
  async execute(input, { workspace, signal }): Promise<ToolOutput> {
    if (signal.aborted) return abortedOutput();
    const target = await resolveWorkspacePath(workspace, input.path ?? '.');
    if (!target.ok) return refusal(target);
    const shown = target.relative;
    try {
      if (!(await stat(target.path)).isDirectory()) return fsErrorFor('ENOTDIR', shown, 'list');
      const root = await realpath(workspace);
      const dir = await openDirBeneath(root, relative(root, target.path));
      let entries: Dirent[];
      try {
        entries = await readdir(selfPath(dir.handle, target.path), { withFileTypes: true });
      } finally {
        await dir.handle.close();
      }
      if (signal.aborted) return abortedOutput();
      if (entries.length === 0) return { content: `(the directory "${shown}" is empty)`, empty: true };
      const names = (await Promise.all(entries.map((entry) => displayName(target.path, entry)))).sort(byCodeUnit);
      const kept = names.slice(0, LS_MAX_ENTRIES);
      const more = names.length - kept.length;
      const note = more > 0 ? `\n\n(showing ${kept.length} of ${names.length} entries; use glob to narrow down)` : '';
      return { content: kept.join('\n') + note };
    } catch (error) {
      if (isAbortError(error) || signal.aborted) return abortedOutput();
      if (error instanceof PathChangedError) return changedOutput(shown, error);
      return fsErrorOutput(error, shown, 'list');
    }
  },
};

/** Directories (also through a symlink) get a trailing `/`. A dangling link is listed as a plain name. */
async function displayName(dir: string, entry: Dirent): Promise<string> {
  if (entry.isDirectory()) return `${entry.name}/`;
  if (!entry.isSymbolicLink()) return entry.name;
  try {
    return (await stat(join(dir, entry.name))).isDirectory() ? `${entry.name}/` : entry.name;
  } catch {
    return entry.name; // dangling or unreadable link: still an entry, just not a directory
  }
}
