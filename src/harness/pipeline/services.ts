/**
 * The session-scoped collaborators of the per-call pipeline: hooks, the
 * permission chain's configuration and state, result policy, snapshots and
 * display modes. One object per session (session memory and the denial fuse
 * live across turns). Every part is optional: a stage whose part is absent
 * passes calls through — the suite runner always configures all of them
 * (src/suites/pipeline-services.ts); library callers choose.
 */
import type { HookSet } from '../hooks/types.js';
import type { PermissionConfig } from '../permissions/types.js';
import type { ResultDisplayMode } from '../tools/tool.js';
import type { CommandSandbox } from '../sandbox/sandbox.js';
import type { SnapshotMemory } from './snapshot-memory.js';

export interface SessionPermissions {
  /** Includes the session's SessionMemory and DenialTracker. */
  readonly config: PermissionConfig;
  /**
   * Answers an `ask` when the session is not headless (a person, or a
   * scripted human in suites). Absent: nobody can answer, so ask = deny.
   */
  readonly askHuman?: (request: { tool: string; input: unknown; reason: string }) => Promise<'allow' | 'deny'>;
}

export interface SettledCall {
  toolUseId: string;
  tool: string;
  isError: boolean;
  /** User-facing side (docs/harness-rules.md#model-and-display-sides): `hidden` = no card; `summary` = header only; errors are always `full`. */
  display: { mode: ResultDisplayMode; text: string };
}

export interface PipelineServices {
  hooks?: HookSet | null;
  permissions?: SessionPermissions | null;
  /** Where over-limit results are written; must be inside the workspace so the model can `read` them back. */
  spillDir?: string | null;
  /** Where files are copied before a mutating call; null = no snapshots. */
  snapshotDir?: string | null;
  /** Set for a workspace deleted when the session ends: snapshots are held here (within its bound) instead of below snapshotDir. */
  snapshotMemory?: SnapshotMemory | null;
  /** Per-tool display overrides (suite `display_mode`), over the tool's own `resultDisplayMode`. */
  displayModes?: Readonly<Record<string, ResultDisplayMode>>;
  /** Side channel to the user-facing side, called once per settled call (docs/harness-rules.md#results-in-one-message onToolSettled). */
  onSettled?: (settled: SettledCall) => void;
  /** The OS sandbox bash runs commands in (src/harness/sandbox); absent = none. */
  sandbox?: CommandSandbox | null;
  /**
   * Makes the workspace exist before the first call that needs it (after
   * lookup, before the snapshot): the suite runner creates workspaces lazily,
   * so a session that calls no tool never touches the disk. Called for every
   * such call; the implementation does the work once.
   */
  prepareWorkspace?: () => Promise<void>;
}
