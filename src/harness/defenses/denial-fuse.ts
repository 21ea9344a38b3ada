/** docs/harness-rules.md#denial-fuse: repeated refusals of one tool trip a fuse, counted at its single convergence point. */
import type { WiredDefense } from './types.js';

export const denialFuse: WiredDefense = {
  name: 'denial_fuse',
  guards: 'the model asking again and again for a call that is refused: after N denials of a tool its calls stop at the fuse (asks included)',
  source: 'docs/harness-rules.md#denial-fuse (checker.ts denial tracking; the ask path counted too)',
  defaultOn: true,
  action: 'fuse',
  // Counted in pipeline/permission.ts, the one place every final answer passes.
  evaluatedAt: 'permission',
};
