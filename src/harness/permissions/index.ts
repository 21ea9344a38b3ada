/**
 * Public surface of the permission layer (docs/harness-rules.md#permissions). See README.md for the
 * chain order, the events the pipeline emits with each result, and the parser.
 */
export { checkPermission } from './chain.js';
export { CHAIN_STEPS } from './types.js';
export type {
  ChainStep, HookDecision, PathAccess, PermissionConfig, PermissionResult, PermissionRule, PermissionSubject, RuleEffect,
} from './types.js';
export { commandSubject, fileSubject } from './subjects.js';
export { staticConstraintsText } from './constraints-text.js';
export { DenialTracker, type FuseRecord } from './denial-tracker.js';
export { SessionMemory, memoryKey, stableStringify } from './session-memory.js';
export { isReadOnlyCommand, readOnlyVerdict, type ReadOnlyVerdict } from './read-only-command.js';
export { analyzeShell, type ShellAnalysis, type SimpleCommand, type Redirection, type ShellFlag, type ShellConstruct } from './shell-analysis.js';
export { findDangerousCommand, DANGER_IDS, type DangerId, type DangerHit } from './dangerous-command.js';
export { checkPath, type PathVerdict, type PathKind, type PathGuardOptions } from './path-guard.js';
export { DEFAULT_PROTECTED_PATHS, SENSITIVE_PATHS, type PathRule } from './protected-paths.js';
