/** The scripted mock provider: one engine, wire codecs, the mount-neutral respond(), the msw mount. */
export * from './script.js';
export { runScript, type MockReply, type MockBlock, type EngineResult } from './engine.js';
export { respond, type RespondInput, type RespondOutput } from './respond.js';
export { MockSession, type RecordedRequest, type InjectedFailure } from './session.js';
export { registerSession, mockModel, stopMockHub, MOCK_ORIGIN, type MockSessionHandle, type RegisterOptions } from './msw-hub.js';
export type { DecodedRequest } from './decoded-request.js';
export type { HttpReply, Wire } from './wire-errors.js';
