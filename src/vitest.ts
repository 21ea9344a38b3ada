/**
 * `import 'faultline/vitest'` (in a test file, or once in vitest's
 * `setupFiles`): registers faultline's matchers with vitest's `expect` and
 * types them, so `expect(run).toHaveFired('identical_call_loop')` compiles
 * under `strict`. A separate entry from `faultline/testing`, which stays free
 * of vitest for other runners (Jest: `expect.extend(faultlineMatchers)`).
 */
import { expect } from 'vitest';
import { faultlineMatchers, type FaultlineMatchers } from './testing/matchers.js';

expect.extend(faultlineMatchers);

declare module 'vitest' {
  // Merged into vitest's own Matchers interface (vitest >= 3.2): `expect(x).toHaveFired(...)`.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends FaultlineMatchers<T> {}
}

export { faultlineMatchers, type FaultlineMatchers };
