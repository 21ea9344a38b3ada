/**
 * The mock sessions registered for in-process clients (registerSession), as
 * one router: the fetch that answers them in process (msw-hub.ts, through
 * memory-fetch.ts) dispatches to it, and the msw handlers of faultline/msw
 * (msw-mount.ts) look sessions up in it. Holds no msw type and loads no msw,
 * so faultline/testing needs no msw installed, for its types or its fetch.
 */
import { MockRouter } from './mock-router.js';

/** The origin of every in-process mock session's base URL: `<origin>/s/<id>`. */
export const MOCK_ORIGIN = 'https://mock.faultline.invalid';

/** `m` ids (`m1`, `m2`): a trace's session ids say a registered session answered. */
export const hubRouter = new MockRouter('m');
