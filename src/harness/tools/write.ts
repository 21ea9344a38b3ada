/**
 * write: create or overwrite a whole file (parent directories are created).
 * Reports bytes written and whether the file was new, so an empty success is
 * never ambiguous (docs/harness-rules.md#empty-output).
 *
 * The checked path is opened, not named again (checked-file.ts), and the
 * content goes to a new file renamed over the old name: never written in
 * place, so a hard link whose other name is outside the workspace (pnpm's
 * node_modules) keeps its content (safe-fs/replace-file.ts).
 */
import { z } from 'zod';
import { closeOpened } from '../safe-fs/beneath.js';
import { replaceFile } from '../safe-fs/replace-file.js';
import { changedOutput, openChecked, PathChangedError } from './checked-file.js';
import { abortedOutput, fsErrorFor, fsErrorOutput, isAbortError } from './fs-errors.js';
import type { Tool, ToolOutput } from './tool.js';
import { refusal, resolveWorkspacePath } from './workspace-path.js';

const schema = z.strictObject({
  file_path: z.string().describe('Path of the file to write, relative to the workspace root (or absolute inside it).'),
  content: z.string().describe('The complete new content of the file.'),
});
export type WriteInput = z.infer<typeof schema>;

export const writeTool: Tool<WriteInput> = {
  name: 'write',
  description:
    'Create a file in the workspace or replace its entire content. Creates missing parent directories.',
  usage: [
    '- Use edit to change part of an existing file; write replaces the whole file.',
    '- Read an existing file before overwriting it so no content is lost by accident.',
    '- Use write instead of echo or heredoc redirection through bash.',
  ].join('\n'),
  inputSchema: schema,
  readOnly: false,
  // Its descriptors are all opened before the write or rename that commits it; parents made by an earlier try exist already (tool.ts).
  opensBeforeEffects: true,
  // Let a user abort wait for a running write (it is short, and its own timeout still applies). The
  // new content goes in by rename, so no half file is left either way; but an abort does not stop the body,
  // it abandons it (pipeline/execute.ts races the two), and a rename already under way still lands after
  // the call was reported aborted: the model and the user would be told nothing changed while the file did.
  // Finishing keeps the result true to the disk; a change the user rejects is rewound from its snapshot.
  interruptBehavior: 'block',
  isConcurrencySafe: () => false,
  emptyText: '(file written)',
  async execute(input, { workspace, signal }): Promise<ToolOutput> {
    if (signal.aborted) return abortedOutput();
    const target = await resolveWorkspacePath(workspace, input.file_path);
    if (!target.ok) return refusal(target);
    const shown = target.relative;
    if (shown === '.') return fsErrorFor('EISDIR', shown, 'write');
    try {
      const opened = await openChecked(workspace, target.path, { createDirs: true, root: target.root });
      try {
        const stats = opened.handle ? await opened.handle.stat() : null;
        if (stats?.isDirectory()) return fsErrorFor('EISDIR', shown, 'write');
        await replaceFile(opened.dir, opened.name, input.content, { mode: stats?.isFile() ? stats.mode : undefined, signal });
      } finally {
        await closeOpened(opened);
      }
      const bytes = Buffer.byteLength(input.content, 'utf8');
      return { content: `${opened.handle ? 'Overwrote' : 'Created'} "${shown}" (${bytes} bytes written).` };
    } catch (error) {
      if (isAbortError(error) || signal.aborted) return abortedOutput();
      if (error instanceof PathChangedError) return changedOutput(shown, error);
      return fsErrorOutput(error, shown, 'write');
    }
  },
};
