/** The scripted mock provider: one engine, wire codecs (JSON and SSE), the mount-neutral respond(), the msw and loopback mounts. */
export * from './script.js';
export { runScript, type MockReply, type MockBlock, type EngineResult } from './engine.js';
export { respond, type RespondInput, type RespondOutput } from './respond.js';
export { MockSession, type RecordedRequest, type InjectedFailure, type MockAnswer } from './session.js';
export type { TransportPlan } from './fault-reply.js';
export { registerSession, mockModel, stopMockHub, mockFetch, MOCK_ORIGIN, type MockSessionHandle, type RegisterOptions } from './msw-hub.js';
// mockHandlers and mountMockServer are msw's types: exported by faultline/msw (src/msw.ts) only, so this module's types need no msw.
export type { DecodedRequest } from './decoded-request.js';
export type { HttpReply, Wire } from './wire-errors.js';
export { startLoopbackServer, LOOPBACK_HOST, type LoopbackServer, type LoopbackSessionHandle, type LoopbackOptions } from './loopback-server.js';
export { loopbackModel, sharedLoopbackServer, stopSharedLoopbackServer, type LoopbackModelOptions } from './loopback-model.js';
export { mockAdapter, type MockAdapterOptions } from './mock-adapter.js';
export { createMemoryMount, MEMORY_ORIGIN, type MemoryMount } from './memory-mount.js';
export { memoryModel, sharedMemoryMount } from './memory-model.js';
export { MockRouter, SESSION_HEADER, type MockSessionHandle as RoutedSessionHandle } from './mock-router.js';
