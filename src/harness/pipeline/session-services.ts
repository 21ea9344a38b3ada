/**
 * Builds one session's PipelineServices from plain settings (what a suite
 * declares). The permission chain gets fresh session state (memory, denial
 * tracker); switching a defense off switches its chain step off, so a
 * scenario can show it fails without it.
 *
 * Suites run headless: no one answers an ask, so ask = deny (source
 * `default`). `human: approve|refuse` scripts an answer instead, for
 * scenarios about the ask path itself (session memory, the fuse on refusals).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { DefenseName, PermissionMode } from '../../events/labels.js';
import type { HookSet } from '../hooks/types.js';
import { DenialTracker } from '../permissions/denial-tracker.js';
import { SessionMemory } from '../permissions/session-memory.js';
import type { ChainStep, PermissionRule } from '../permissions/types.js';
import type { ResultDisplayMode } from '../tools/tool.js';
import type { CommandSandbox } from '../sandbox/sandbox.js';
import type { PipelineServices, SettledCall } from './services.js';
import { SnapshotMemory } from './snapshot-memory.js';

export interface SessionPipelineSettings {
  workspace: string;
  mode: PermissionMode;
  headless: boolean;
  /** Scripted answer to asks when not headless. */
  human?: 'approve' | 'refuse';
  rules?: readonly PermissionRule[];
  disabledTools?: readonly string[];
  fuseThreshold?: number;
  disabledDefenses?: readonly DefenseName[];
  hooks?: HookSet | null;
  displayModes?: Readonly<Record<string, ResultDisplayMode>>;
  onSettled?: (settled: SettledCall) => void;
  homeDir?: string;
  /** The OS sandbox bash runs in; with bubblewrap the chain knows writes outside cannot land (PermissionConfig.sandboxed). */
  sandbox?: CommandSandbox | null;
  /** See PipelineServices.prepareWorkspace (lazy workspaces). */
  prepareWorkspace?: () => Promise<void>;
  /** The workspace is deleted when the session ends: snapshots are held in memory (PipelineServices.snapshotMemory). */
  workspaceDiscarded?: boolean;
}

/** Spill and snapshot directories live in the workspace (the model can `read` a spill; `.faultline/` is write-protected). */
export const SPILL_SUBDIR = join('.faultline', 'spill');
export const SNAPSHOT_SUBDIR = join('.faultline', 'snapshots');

const DEFENSE_STEPS: Partial<Record<DefenseName, ChainStep>> = {
  dangerous_command_block: 'dangerous_command',
  protected_path_guard: 'protected_paths',
  denial_fuse: 'denial_fuse',
};

/** Skips hashing the input on every call while nothing was approved yet (the common, headless case). */
class LazySessionMemory extends SessionMemory {
  #remembered = 0;
  override remember(tool: string, input: unknown): void {
    this.#remembered++;
    super.remember(tool, input);
  }
  override has(tool: string, input: unknown): boolean {
    return this.#remembered > 0 && super.has(tool, input);
  }
  override clear(): void {
    this.#remembered = 0;
    super.clear();
  }
}

export function createSessionServices(settings: SessionPipelineSettings): PipelineServices {
  const off = settings.disabledDefenses ?? [];
  const skipSteps = new Set(off.flatMap((d) => (DEFENSE_STEPS[d] ? [DEFENSE_STEPS[d]] : [])));
  const human = settings.headless ? undefined : (settings.human ?? 'refuse');
  return {
    hooks: settings.hooks ?? null,
    permissions: {
      config: {
        mode: settings.mode,
        headless: settings.headless,
        workspaceRoot: settings.workspace,
        homeDir: settings.homeDir ?? homedir(),
        rules: settings.rules ?? [],
        disabledTools: settings.disabledTools ?? [],
        sessionMemory: new LazySessionMemory(),
        denials: off.includes('denial_fuse') ? undefined : new DenialTracker({ threshold: settings.fuseThreshold ?? 3 }),
        ...(skipSteps.size > 0 ? { skipSteps } : {}),
        ...(settings.sandbox?.kind === 'bubblewrap' ? { sandboxed: true } : {}),
      },
      ...(human ? { askHuman: async () => (human === 'approve' ? 'allow' : 'deny') } : {}),
    },
    spillDir: join(settings.workspace, SPILL_SUBDIR),
    snapshotDir: join(settings.workspace, SNAPSHOT_SUBDIR),
    ...(settings.workspaceDiscarded ? { snapshotMemory: new SnapshotMemory() } : {}),
    displayModes: settings.displayModes ?? {},
    onSettled: settings.onSettled,
    sandbox: settings.sandbox ?? null,
    ...(settings.prepareWorkspace ? { prepareWorkspace: settings.prepareWorkspace } : {}),
  };
}
