/**
 * edit: replace an exact string in a file. The match must be unique unless
 * replace_all is set, so the model never changes a place it did not mean to.
 * Each refusal says what to do next (docs/harness-rules.md#unknown-tool).
 *
 * The checked path is opened once and read from that descriptor
 * (checked-file.ts); the result is a new file renamed over the name, never
 * written in place through an inode with other names (safe-fs/replace-file.ts).
 */
import { fstatSync, readFile } from 'node:fs';
import { promisify } from 'node:util';
import { z } from 'zod';
import { closeOpenedSync } from '../safe-fs/beneath.js';
import { readToEndSync } from '../safe-fs/read-to-end.js';
import { replaceFile, replaceFileSync } from '../safe-fs/replace-file.js';
import { changedOutput, locateFile, openCheckedSync, PathChangedError } from './checked-file.js';
import { abortedOutput, fsErrorFor, fsErrorOutput, isAbortError } from './fs-errors.js';
import { callStopped, type Tool, type ToolOutput } from './tool.js';
import { refusal } from './workspace-path.js';

/** Up to this size a file is read and its replacement written synchronously (local calls of microseconds each); larger ones go through the thread pool, so a huge file never holds the event loop. */
const SYNC_BYTES = 1024 * 1024;
const readFileAsync = promisify(readFile);

const schema = z.strictObject({
  file_path: z.string().describe('Path of the file to edit, relative to the workspace root (or absolute inside it).'),
  old_string: z
    .string()
    .min(1)
    .describe('The exact text to replace, including whitespace and indentation, without read line-number prefixes.'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  // Optional rather than .default(false): a default would make the field required in the JSON Schema.
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence instead of requiring exactly one. Defaults to false.'),
});
export type EditInput = z.infer<typeof schema>;

export const editTool: Tool<EditInput> = {
  name: 'edit',
  description:
    'Replace an exact string in an existing workspace file with new text. ' +
    'old_string must occur exactly once unless replace_all is true.',
  usage: [
    '- Read the file first and copy old_string exactly as it appears, without the line-number prefix.',
    '- If old_string occurs more than once, include more surrounding lines to make it unique, or set replace_all.',
    '- To create a new file or rewrite a whole file, use write instead.',
    '- Use edit instead of sed or awk through bash.',
  ].join('\n'),
  inputSchema: schema,
  readOnly: false,
  // Its descriptors (directory, file, temp file) are all opened before the rename that commits it (tool.ts).
  opensBeforeEffects: true,
  // Replaces one existing file's content by rename, makes no other entry (the git-state walk after it may be skipped).
  rewritesOnly: true,
  // Let a user abort wait for a running edit (it is short, and its own timeout still applies). The
  // new content goes in by rename, so no half file is left either way; but an abort does not stop the body,
  // it abandons it (pipeline/execute.ts races the two), and a rename already under way still lands after
  // the call was reported aborted: the model and the user would be told nothing changed while the file did.
  // Finishing keeps the result true to the disk; a change the user rejects is rewound from its snapshot.
  interruptBehavior: 'block',
  isConcurrencySafe: () => false,
  emptyText: '(file edited)',
  // The context's signal is read only for a large file's async write: a check needs none (callStopped).
  async execute(input, context): Promise<ToolOutput> {
    if (callStopped(context)) return abortedOutput();
    if (input.old_string === input.new_string) {
      return {
        content: 'old_string and new_string are identical, so there is nothing to change. Send the new text in new_string.',
        isError: true,
        errorCode: 'no_change',
      };
    }
    // Not awaited when found at once: the file is then open already, and must not stay so across an await.
    const located = locateFile(context.workspace, input.file_path, context.realRoot);
    const target = located instanceof Promise ? await located : located;
    if (!target.ok) return refusal(target);
    const shown = target.relative;
    try {
      const opened = openCheckedSync(target);
      let n: number;
      try {
        if (opened.fd === null) return fsErrorOutput(Object.assign(new Error('ENOENT'), { code: 'ENOENT' }), shown, 'edit');
        const stats = fstatSync(opened.fd);
        if (stats.isDirectory()) return fsErrorFor('EISDIR', shown, 'edit');
        if (!stats.isFile()) return notRegular(shown);
        // From the descriptor just opened (position 0), never by name again.
        const before = stats.size <= SYNC_BYTES ? readToEndSync(opened.fd, stats.size).toString('utf8') : await readFileAsync(opened.fd, 'utf8');
        const positions = occurrences(before, input.old_string);
        const problem = checkCount(positions.length, shown, input.replace_all === true);
        if (problem) return problem;
        const after = replaceAt(before, positions, input.old_string.length, input.new_string);
        context.rewrote?.(opened.name);
        if (after.length <= SYNC_BYTES / 4) replaceFileSync(opened.dir, opened.name, after, { mode: stats.mode });
        else await replaceFile(opened.dir, opened.name, after, { mode: stats.mode, signal: context.signal });
        n = positions.length;
      } finally {
        closeOpenedSync(opened);
      }
      return { content: `Edited "${shown}": replaced ${n} occurrence${n === 1 ? '' : 's'}.` };
    } catch (error) {
      if (isAbortError(error) || callStopped(context)) return abortedOutput();
      if (error instanceof PathChangedError) return changedOutput(shown, error);
      return fsErrorOutput(error, shown, 'edit');
    }
  },
};

function notRegular(shown: string): ToolOutput {
  return { content: `"${shown}" is not a regular file (a FIFO, socket or device), so it was not edited.`, isError: true, errorCode: 'not_regular_file' };
}

function checkCount(count: number, shown: string, replaceAll: boolean): ToolOutput | null {
  if (count === 0) {
    return {
      content:
        `old_string was not found in "${shown}". It must match the file exactly, including whitespace and indentation. ` +
        'Read the file again and copy the text exactly.',
      isError: true,
      errorCode: 'no_match',
    };
  }
  if (count > 1 && !replaceAll) {
    return {
      content:
        `old_string occurs ${count} times in "${shown}", so the edit was not applied. ` +
        'Add surrounding lines to old_string so it matches exactly one place, or set replace_all to true to change every occurrence.',
      isError: true,
      errorCode: 'not_unique',
    };
  }
  return null;
}

/** Start offsets of non-overlapping occurrences, left to right (what a sequential replace would hit). */
export function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

/** Splices by position: String.replace would interpret `$&` and friends inside new_string. */
function replaceAt(text: string, positions: number[], length: number, replacement: string): string {
  let out = '';
  let from = 0;
  for (const at of positions) {
    out += text.slice(from, at) + replacement;
    from = at + length;
  }
  return out + text.slice(from);
}
