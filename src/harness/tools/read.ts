/**
 * read: a window of a text file, line-numbered like `cat -n`. It limits its own
 * output in lines (default 2,000) and says how to read on, so the result stage
 * never needs to spill it (docs/harness-rules.md#truncate-and-spill: spilling `read` output loops).
 *
 * The checked path is opened once (checked-file.ts) and everything — type,
 * binary sniff, lines — comes from that descriptor, never from the name again.
 */
import { createReadStream, fstatSync, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { closeOpenedSync } from '../safe-fs/beneath.js';
import { sniffFd } from './binary.js';
import { changedOutput, locateFile, openCheckedSync, PathChangedError } from './checked-file.js';
import { abortedOutput, fsErrorFor, fsErrorOutput, isAbortError } from './fs-errors.js';
import { fileKind } from './regular-file.js';
import { callStopped, type Tool, type ToolContext, type ToolOutput } from './tool.js';
import { refusal } from './workspace-path.js';
import { packedMap } from '../packed-map.js';

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_LINE_CHARS = 2000;

const schema = z.strictObject({
  file_path: z.string().describe('Path of the file to read, relative to the workspace root (or absolute inside it).'),
  offset: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('1-based line number to start from. Omit to start at line 1.'),
  limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`Maximum number of lines to return. Omit for the default of ${READ_DEFAULT_LIMIT}.`),
});
export type ReadInput = z.infer<typeof schema>;

export const readTool: Tool<ReadInput> = {
  name: 'read',
  description:
    'Read a text file from the workspace and return its lines numbered like `cat -n`. ' +
    `Returns up to ${READ_DEFAULT_LIMIT} lines per call; use offset and limit to page through large files.`,
  usage: [
    '- Use read instead of running cat, head or tail through bash.',
    `- When the file has more lines than were shown, the output ends with a note giving the total and the offset to continue from.`,
    `- A file of up to ${READ_DEFAULT_LIMIT} lines comes back whole from one read: do not page through it with offset and limit.`,
    `- Lines longer than ${READ_MAX_LINE_CHARS} characters are cut.`,
    '- Read a file before editing it, and copy old_string for edit from this output without the line-number prefix.',
    '- Binary files and directories cannot be read; use ls to list a directory.',
  ].join('\n'),
  inputSchema: schema,
  readOnly: true,
  isConcurrencySafe: () => true,
  emptyText: '(the file is empty)',
  // The context's signal is read only to stream a large file: a check needs none (callStopped).
  async execute(input, context): Promise<ToolOutput> {
    if (callStopped(context)) return abortedOutput();
    // Not awaited when found at once: the file is then open already, and must not stay so across an await.
    const located = locateFile(context.workspace, input.file_path, context.realRoot);
    const target = located instanceof Promise ? await located : located;
    if (!target.ok) return refusal(target);
    const shown = target.relative;
    try {
      // Metadata, the sniff and a small file's bytes are read synchronously from the descriptor: each is a
      // syscall of microseconds, where the thread pool's round trip cost more than the call itself.
      const opened = openCheckedSync(target);
      try {
        if (opened.fd === null) return fsErrorOutput(Object.assign(new Error('ENOENT'), { code: 'ENOENT' }), shown, 'read');
        const stats = fstatSync(opened.fd);
        if (stats.isDirectory()) return fsErrorFor('EISDIR', shown, 'read');
        if (!stats.isFile()) {
          // A FIFO or device would block the read until someone writes to it: only regular files are read.
          return { content: `"${shown}" is a ${fileKind(stats)}, not a regular file, so it was not read.`, isError: true, errorCode: 'not_regular_file' };
        }
        const sniff = sniffFd(opened.fd);
        if (sniff.binary) {
          return {
            content: `"${shown}" looks like a binary file (it contains NUL bytes), so it was not read. read only shows text files.`,
            isError: true,
            errorCode: 'binary_file',
          };
        }
        const offset = input.offset ?? 1;
        const limit = input.limit ?? READ_DEFAULT_LIMIT;
        // A file shorter than the sniff was read whole by it: its bytes are the file's, no second read (split at once: the
        // sniff's buffer is shared, binary.ts).
        let window = stats.size > WHOLE_READ_BYTES ? null : sniff.whole !== null ? splitWindow(sniff.whole, offset, limit) : readWhole(opened.fd, stats.size, offset, limit, context);
        if (window === null) {
          const fd = opened.fd;
          opened.fd = null; // the stream closes it, after any read still in flight
          window = await readWindow(fd, offset, limit, context.signal);
        }
        return formatWindow(shown, offset, window);
      } finally {
        closeOpenedSync(opened);
      }
    } catch (error) {
      if (isAbortError(error) || callStopped(context)) return abortedOutput();
      if (error instanceof PathChangedError) return changedOutput(shown, error);
      return fsErrorOutput(error, shown, 'read');
    }
  },
};

interface Window {
  lines: string[];
  total: number;
}

/** Up to this size the file is read in one call and split here (a stream and a line reader cost more than the read itself). */
const WHOLE_READ_BYTES = 256 * 1024;
/** Line ends as node:readline splits them (crlfDelay: Infinity): \r\n, \n, or a lone \r. */
const LINE_END = /\r\n|\n|\r/;

/**
 * The same window as readWindow, for a small file: read from position 0 to the end, then split. Synchronous
 * (a few reads of at most WHOLE_READ_BYTES from a local file); null when the file grew a lot since the stat
 * and is streamed instead.
 */
function readWhole(fd: number, size: number, offset: number, limit: number, context: ToolContext): Window | null {
  const chunks: Buffer[] = [];
  let position = 0;
  // Read to the end, not to the size seen: the file may have grown since the stat.
  for (;;) {
    const buffer = Buffer.allocUnsafe(Math.max(size - position, 0) + 1);
    const bytesRead = readSync(fd, buffer, 0, buffer.length, position);
    if (callStopped(context)) context.signal.throwIfAborted();
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    position += bytesRead;
    if (bytesRead < buffer.length) break; // a short read of a regular file is its end
    if (position > WHOLE_READ_BYTES * 4) return null; // grew a lot: stream it
  }
  return splitWindow(Buffer.concat(chunks), offset, limit);
}

/** The window of a whole file's bytes. */
function splitWindow(bytes: Buffer, offset: number, limit: number): Window {
  const all = bytes.toString('utf8').split(LINE_END);
  if (all.at(-1) === '') all.pop(); // a final line end ends the last line, it does not start another
  return { lines: all.slice(offset - 1, offset - 1 + limit), total: all.length };
}

/** Streams the file so a huge file costs memory only for the shown window, while still counting every line. */
async function readWindow(fd: number, offset: number, limit: number, signal: AbortSignal): Promise<Window> {
  // From position 0 on the descriptor already open. The stream owns it: a stream's destroy closes its descriptor
  // whatever autoClose says, and waits for a read in flight first, so no one else may close it.
  const stream = createReadStream('', { fd, encoding: 'utf8', signal, start: 0 });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const kept: string[] = [];
  let total = 0;
  try {
    for await (const line of lines) {
      total += 1;
      if (total >= offset && kept.length < limit) kept.push(line);
    }
  } finally {
    lines.close();
    // Returned only once the descriptor is closed (at the end, on an abort, on an error alike).
    if (!stream.closed) {
      const closed = new Promise<void>((done) => stream.once('close', () => done()));
      stream.destroy();
      await closed;
    }
  }
  return { lines: kept, total };
}

function formatWindow(shown: string, offset: number, { lines, total }: Window): ToolOutput {
  if (total === 0) return { content: `(the file "${shown}" is empty: 0 lines)`, empty: true };
  if (offset > total) {
    return {
      content: `offset ${offset} is past the end of "${shown}", which has ${total} lines. Call read with an offset between 1 and ${total}.`,
      isError: true,
      errorCode: 'offset_out_of_range',
    };
  }
  const body = packedMap(lines, (line, i) => `${String(offset + i).padStart(6)}\t${cutLine(line)}`).join('\n');
  const last = offset + lines.length - 1;
  if (last >= total) return { content: body };
  // The reverse hint: paging through a file one read could return whole costs a turn per page, and every later
  // request carries each page again; a model does not notice that on its own, so say it.
  if (total <= READ_DEFAULT_LIMIT) {
    return {
      content:
        `${body}\n\n(showing lines ${offset}-${last} of ${total}. The file has only ${total} lines, within the ${READ_DEFAULT_LIMIT} one read returns: ` +
        'read it whole (omit offset and limit) or reuse what you already read, instead of paging through it)',
    };
  }
  return {
    content: `${body}\n\n(showing lines ${offset}-${last} of ${total}; call read with offset=${last + 1} to continue)`,
  };
}

function cutLine(line: string): string {
  if (line.length <= READ_MAX_LINE_CHARS) return line;
  return `${line.slice(0, READ_MAX_LINE_CHARS)}… (line cut at ${READ_MAX_LINE_CHARS} of ${line.length} characters)`;
}
