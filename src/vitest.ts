/**
 * `import 'faultline/vitest'` (in a test file, or once in vitest's
 * `setupFiles`): registers faultline's matchers with vitest's `expect` and
 * types them, so `expect(run).toHaveFired('identical_call_loop')` compiles
 * under `strict`. A separate entry from `faultline/testing`, which stays free
 * of vitest for other runners (Jest: `expect.extend(faultlineMatchers)`).
 *
 * vitest is an optional peer: imported here, not statically, so a project
 * without it gets the install command rather than Node's bare "Cannot find
 * package". A dynamic import (vitest has no usable require), hence the
 * top-level await: this entry is for vitest, which loads it as ESM.
 */
import { loadPeer, VITEST } from './providers/optional-peer.js';
import { faultlineMatchers, type FaultlineMatchers } from './testing/matchers.js';

const { expect } = await loadPeer(VITEST, () => import('vitest'));
expect.extend(faultlineMatchers);

declare module 'vitest' {
  // Merged into vitest's own Matchers interface (vitest >= 3.2): `expect(x).toHaveFired(...)`.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends FaultlineMatchers<T> {}
}

export { faultlineMatchers, type FaultlineMatchers };
