/** docs/harness-rules.md#truncate-and-spill, docs/harness-rules.md#combined-mechanisms: reading a spilled result must not spill again. */
import type { WiredDefense } from './types.js';

export const spillReadLoop: WiredDefense = {
  name: 'spill_read_loop',
  guards: 'read of a spilled result spilled again in a loop (spill says "read it", read spills): read is never spilled, it limits lines itself',
  source: 'docs/harness-rules.md#truncate-and-spill, docs/harness-rules.md#combined-mechanisms (read: Infinity)',
  defaultOn: true,
  action: 'block',
  // Evaluated in pipeline/truncate-spill.ts where a read would have been spilled.
  evaluatedAt: 'tool_result',
  // Only a read's output is judged, and only one it produced: a failed read has nothing to spill.
  judges: { tools: ['read'], successesOnly: true },
};
