/**
 * `faultline/testing`: check a harness or a defense from your own vitest suite.
 * - runScenario(): a fault scenario through faultline's harness and the scripted mock;
 * - faultlineMatchers: toHaveFired, toHaveNoLostCalls, toHaveFailureKind (`expect.extend`);
 * - the mock's msw handlers and loopback mount, to drive your own harness with the official SDK clients;
 * - workspaces for it.
 */
export * from './mock/index.js';
export { createWorkspace, removeWorkspace } from './suites/workspace.js';
export { runScenario, ScenarioError, type ScenarioOptions, type ScenarioRun } from './testing/run-scenario.js';
export { faultlineMatchers, type FaultlineMatchers } from './testing/matchers.js';
export { stopSharedLoopbackServer as closeScenarios } from './mock/loopback-model.js';
