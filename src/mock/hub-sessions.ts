/**
 * The mock sessions registered for in-process clients (registerSession), by
 * id, shared by the fetch that answers them (msw-hub.ts) and the msw
 * handlers that route to them (msw-mount.ts). Holds no msw type, so the
 * public types of faultline/testing need no msw installed.
 */
import type { MockSession } from './session.js';

/** The origin of every in-process mock session's base URL: `<origin>/s/<id>`. */
export const MOCK_ORIGIN = 'https://mock.faultline.invalid';

export const hubSessions = new Map<string, MockSession>();
