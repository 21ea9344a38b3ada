/**
 * `faultline/msw`: the scripted mock as msw handlers, for a project that has
 * msw (an optional peer dependency: `npm i -D msw`).
 * - mockHandlers: add them to your own msw server, `server.use(...mockHandlers)`;
 * - mountMockServer(): faultline's own msw server, for a process with none;
 * - registerSession / mockFetch / stopMockHub, the same as `faultline/testing`'s
 *   (their fetch answers in process; the handlers answer the same sessions).
 * Its types are msw's, so it is an entry of its own: `faultline/testing`
 * names no msw type and typechecks without msw installed. Without msw,
 * importing this entry fails at once with the install command.
 */
import { loadMsw } from './mock/msw-mount.js';

loadMsw();

export { mockHandlers, mountMockServer } from './mock/msw-mount.js';
export { registerSession, mockFetch, stopMockHub, MOCK_ORIGIN, type MockSessionHandle, type RegisterOptions } from './mock/msw-hub.js';
