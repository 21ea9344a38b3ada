import { describe, expect, it } from 'vitest';
import { readProgress, type CliIo } from './io.js';

function io(stderrIsTTY: boolean): CliIo & { err: string[] } {
  const err: string[] = [];
  return { stdout: () => {}, stderr: (t) => err.push(t), env: {}, cwd: '/', isTTY: false, stderrIsTTY, err };
}

describe('readProgress', () => {
  it('draws one self-overwriting line for big inputs and erases it when done', () => {
    const term = io(true);
    const progress = readProgress(term);
    progress?.({ bytesRead: 50e6, bytesTotal: 200e6 });
    progress?.({ bytesRead: 60e6, bytesTotal: 200e6 }); // throttled: within 250 ms of the last line
    progress?.({ bytesRead: 200e6, bytesTotal: 200e6 });
    expect(term.err).toEqual(['\rreading traces: 0.05 / 0.20 GB (25%)\x1b[K', '\r\x1b[K']);
  });

  it('says nothing for small inputs or when stderr is not a terminal', () => {
    const term = io(true);
    readProgress(term)?.({ bytesRead: 1e6, bytesTotal: 2e6 });
    expect(term.err).toEqual([]);
    expect(readProgress(io(false))).toBeUndefined();
  });
});
