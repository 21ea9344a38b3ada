/**
 * `faultline/testing`: drive any harness that uses the official SDK clients
 * against the scripted mock (msw mount), and build workspaces for it.
 */
export * from './mock/index.js';
export { createWorkspace, removeWorkspace } from './suites/workspace.js';
