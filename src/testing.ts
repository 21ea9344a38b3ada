/**
 * `faultline/testing`: check a harness or a defense from your own vitest suite.
 * - runScenario(): a fault scenario through faultline's harness and the scripted mock;
 * - faultlineMatchers: toHaveFired, toHaveNoLostCalls, toHaveFailureKind (`expect.extend`);
 * - the mock for your own harness on the official SDK clients: a session's baseURL and fetch
 *   (registerSession; its fetch answers in process and needs no msw), the loopback server,
 *   the in-memory mount;
 *   the msw handlers themselves are `faultline/msw` (their types are msw's: this entry names none,
 *   so it typechecks in a project without msw);
 * - workspaces for it.
 */
export * from './mock/index.js';
export { createWorkspace, removeWorkspace } from './suites/workspace.js';
export { runScenario, ScenarioError, type ScenarioOptions, type ScenarioRun } from './testing/run-scenario.js';
export { faultlineMatchers, type FaultlineMatchers } from './testing/matchers.js';
export { stopSharedLoopbackServer as closeScenarios } from './mock/loopback-model.js';
