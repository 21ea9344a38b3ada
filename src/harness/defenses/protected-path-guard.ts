/** docs/harness-rules.md#permission-chain a: protected paths are bypass-immune. */
import type { WiredDefense } from './types.js';

export const protectedPathGuard: WiredDefense = {
  name: 'protected_path_guard',
  guards: 'writes to .git/hooks, .git/config, .faultline and hook config: refused in every mode, bypass included, before any allow rule',
  source: 'docs/harness-rules.md#permission-chain (step a), docs/harness-rules.md#permission-chain',
  defaultOn: true,
  action: 'block',
  // The permission chain's protected_paths step (permissions/chain.ts).
  evaluatedAt: 'permission',
  // Only calls that name paths: the built-in file tools always do (pipeline/permission-subject.ts);
  // a bash command only when it names one, which the trace cannot tell, so bash is not counted.
  judges: { tools: ['read', 'write', 'edit', 'ls', 'glob', 'grep'] },
};
