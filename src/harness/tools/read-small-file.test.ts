/**
 * read takes a small file in one read and splits it itself; a large one goes
 * through a stream and node:readline. Both must give the model the same
 * lines: the same content, small and padded past the one-read size, shows
 * the same window and the same line count.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readTool } from './read.js';
import { context, makeWorkspace, removeWorkspaces } from './test-helpers.js';

afterEach(removeWorkspaces);

const BODIES = {
  'crlf and lone cr': 'one\r\ntwo\rthree\nfour',
  'final line end': 'a\n\nb\n',
  'only line ends': '\n\r\n\r',
  'utf-8 across lines': 'ä\nß\r\n€ end\n',
} as const;

describe('read: the one-read path splits lines as node:readline does', () => {
  it.each(Object.entries(BODIES))('%s', async (_name, body) => {
    const filler = `${'x'.repeat(99)}\n`.repeat(3000); // 300 KB: past the one-read size, so this file is streamed
    const ended = /(\r\n|\n|\r)$/.test(body);
    const ws = await makeWorkspace({ 'small.txt': body, 'large.txt': body + (ended ? '' : '\n') + filler });
    const small = await readTool.execute({ file_path: 'small.txt' }, context(ws));
    const large = await readTool.execute({ file_path: 'large.txt', limit: 6 }, context(ws));
    const shown = (text: string) => text.split('\n\n(showing')[0]!.split('\n').filter((l) => /^\s+\d+\t/.test(l) && !l.includes('xxx'));
    const smallLines = shown(small.content);
    expect(smallLines.length).toBeGreaterThan(0);
    // The streamed file starts with the same lines (its filler lines aside), and the line count matches.
    expect(shown(large.content).slice(0, smallLines.length)).toEqual(smallLines);
    const streamedTotal = Number(/of (\d+)/.exec(large.content)![1]);
    const smallTotal = body.split(/\r\n|\n|\r/).length - (ended ? 1 : 0);
    expect(smallLines.length).toBe(smallTotal);
    expect(streamedTotal).toBe(smallTotal + 3000);
  });
});

describe('read: a file shorter than the binary sniff is shown from the sniff read', () => {
  // Around the sniff's 8,000 bytes: below it the sniff's bytes are the file, at and above it the file is read again.
  it.each([1, 7_999, 8_000, 8_001, 16_003])('%i bytes: every line, the last one included', async (size) => {
    const body = Array.from({ length: size }, (_, i) => (i % 50 === 49 ? '\n' : String.fromCharCode(97 + (i % 26)))).join('').slice(0, size - 1) + 'Z';
    const ws = await makeWorkspace({ 'f.txt': body });
    const out = await readTool.execute({ file_path: 'f.txt', limit: 100_000 }, context(ws));
    const lines = out.content.split('\n').filter((l) => /^\s+\d+\t/.test(l)).map((l) => l.replace(/^\s+\d+\t/, ''));
    expect(lines.join('\n')).toBe(body);
  });
});
