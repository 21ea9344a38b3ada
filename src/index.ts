/**
 * faultline's public API. The event contract and emitter (to log a harness of
 * your own in faultline's format), the harness, the providers, and the suite
 * runner. Test helpers for driving a harness against the mock are in
 * `faultline/testing`.
 */
export * from './events/index.js';
export * from './providers/index.js';
export { runAgent, type AgentRunOptions, type AgentResult } from './harness/loop/agent-loop.js';
export { DEFAULT_HARNESS_CONFIG, type HarnessConfig } from './harness/config.js';
export { restoreSnapshot, SnapshotNotFoundError, type RestoreOptions, type RestoreResult } from './harness/pipeline/snapshot-restore.js';
export { SNAPSHOT_SUBDIR } from './harness/pipeline/session-services.js';
export { createRegistry, builtinTools } from './harness/tools/builtin.js';
export { ToolRegistry } from './harness/tools/registry.js';
import { loadShellParser as loadBashGrammar } from './harness/permissions/shell-parser.js';
/**
 * Loads the bash grammar that bash permission and concurrency checks need (runAgent does it; call it first when you use the tools alone).
 * Typed here, not re-exported: the parser module's declarations import web-tree-sitter's, which do not compile
 * under `skipLibCheck: false` (they name Emscripten's types without depending on them).
 */
export const loadShellParser: () => Promise<void> = loadBashGrammar;
export type { Tool, ToolContext, ToolOutput } from './harness/tools/tool.js';
export { loadSuites, loadSuiteFile, findSuiteFiles, SuiteError, type LoadedTask, type LoadedSuite, type LoadOptions } from './suites/load-suite.js';
export { runSuite, type RunSummary } from './suites/run-suite.js';
export type { ModelSource, SessionModel } from './suites/model-source.js';
export { defineDefense, DefenseDefinitionError } from './harness/defenses/define.js';
export type {
  DefenseHooks,
  DefenseInfo,
  DefenseSessionContext,
  HookDefense,
  ResponseView,
  SettledCallView,
  ToolCallView,
  TurnView,
  Verdict,
} from './harness/defenses/types.js';
export { SHIPPED_DEFENSES } from './harness/defenses/registry.js';
export { FAULTLINE_VERSION } from './version.js';
// What the CLI does, as functions returning the documents `--json` prints.
export { run, type RunOptions, type RunResult } from './api/run.js';
export { report, diff, type ReportOptions, type DiffApiOptions } from './api/report.js';
export { verifyDefense, type VerifyDefenseOptions } from './api/verify-defense.js';
export { JSON_FORMAT_VERSION } from './report/json-format.js';
