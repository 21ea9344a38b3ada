import { describe, expect, it } from 'vitest';
import { DescriptorShortageError, waitingOutShortage } from './shortage-wait.js';

const emfile = () => Object.assign(new Error('EMFILE: too many open files, open'), { code: 'EMFILE' });

describe('a check of the harness that runs out of descriptors', () => {
  it('answers at once when nothing is short', () => {
    expect(waitingOutShortage(() => 42)).toBe(42);
  });

  it('is made again after a shortage, until it passes', async () => {
    let runs = 0;
    const answer = waitingOutShortage(() => {
      if (runs++ < 2) throw emfile();
      return 'read';
    });
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe('read');
    expect(runs).toBe(3);
  });

  it('ends as the harness\'s error, never as the check\'s answer, when the shortage outlasts the wait', async () => {
    const answer = waitingOutShortage(() => {
      throw Object.assign(new Error('ENFILE: file table overflow'), { code: 'ENFILE' });
    }, 30);
    await expect(answer).rejects.toBeInstanceOf(DescriptorShortageError);
    await expect(answer).rejects.toThrow(/ran out of file descriptors.*ENFILE/);
  });

  it('leaves any other error as it was', () => {
    expect(() => waitingOutShortage(() => { throw new Error('boom'); })).toThrow('boom');
  });
});
