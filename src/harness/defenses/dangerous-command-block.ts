/** docs/harness-rules.md#permission-chain: dangerous commands are refused before any mode or allow rule. */
import type { WiredDefense } from './types.js';

export const dangerousCommandBlock: WiredDefense = {
  name: 'dangerous_command_block',
  guards: 'rm -rf /, mkfs, writes to devices, downloads piped into a shell: refused before any mode or allow rule, bypass included',
  source: 'docs/harness-rules.md#permission-chain (step b), docs/harness-rules.md#shell-parsing',
  defaultOn: true,
  action: 'block',
  // The permission chain's dangerous_command step (permissions/chain.ts).
  evaluatedAt: 'permission',
  // Only a shell command is analysed there: a read's permission check never reaches this step.
  judges: { tools: ['bash'] },
};
