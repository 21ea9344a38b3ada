import { describe, expect, it } from 'vitest';
import { closest, didYouMean, editDistance } from './did-you-mean.js';

describe('did you mean', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('tool_call', 'tool_clal')).toBe(1);
    expect(editDistance('read', 'reed')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests a close name and nothing for an unrelated one', () => {
    expect(closest('not_fund', ['not_found', 'timeout'])).toBe('not_found');
    expect(didYouMean('tol', ['tool', 'turn'])).toBe(' (did you mean tool?)');
    expect(didYouMean('bananas', ['tool', 'turn'])).toBe('');
  });
});
