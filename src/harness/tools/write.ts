/**
 * write: create or overwrite a whole file (parent directories are created).
 * Reports bytes written and whether the file was new, so an empty success is
 * never ambiguous (seed §9.1).
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { abortedOutput, fsErrorFor, fsErrorOutput, isAbortError } from './fs-errors.js';
import type { Tool, ToolOutput } from './tool.js';
import { errnoCode, refusal, resolveWorkspacePath } from './workspace-path.js';

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
  isConcurrencySafe: () => false,
  emptyText: '(file written)',
  async execute(input, { workspace, signal }): Promise<ToolOutput> {
    if (signal.aborted) return abortedOutput();
    const target = await resolveWorkspacePath(workspace, input.file_path);
    if (!target.ok) return refusal(target);
    const shown = target.relative;
    try {
      const existed = await fileExists(target.path);
      if (existed === 'directory') return fsErrorFor('EISDIR', shown, 'write');
      await mkdir(dirname(target.path), { recursive: true });
      await writeFile(target.path, input.content, { encoding: 'utf8', signal });
      const bytes = Buffer.byteLength(input.content, 'utf8');
      const verb = existed === 'file' ? 'Overwrote' : 'Created';
      return { content: `${verb} "${shown}" (${bytes} bytes written).` };
    } catch (error) {
      if (isAbortError(error) || signal.aborted) return abortedOutput();
      return fsErrorOutput(error, shown, 'write');
    }
  },
};

async function fileExists(path: string): Promise<'file' | 'directory' | 'none'> {
  try {
    return (await stat(path)).isDirectory() ? 'directory' : 'file';
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'none';
    throw error;
  }
}
