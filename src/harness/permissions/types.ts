/**
 * Data types of the permission chain. The chain depends on no tool code: the
 * pipeline describes each call as a PermissionSubject.
 */
import type { DefenseAction, DefenseName, PermissionDecisionValue, PermissionMode, PermissionSource } from '../../events/labels.js';
import type { PathFs } from './path-resolve.js';
import type { PathRule } from './protected-paths.js';
import type { SessionMemory } from './session-memory.js';
import type { DenialTracker } from './denial-tracker.js';
import type { FindNode } from './find-expr.js';

/**
 * A path the command reads as a whole tree (tree-reads.ts). `walk`: every
 * file under it, symlinks inside not followed (`grep -r`, `cp -r`); `links`:
 * every entry, symlinks included, is handed to a command that follows them
 * (`find -exec CMD {}`); `follow`: symlinks inside are followed too (`grep -R`,
 * `diff -r`, `find -L`).
 */
export interface TreeRead {
  readonly mode: 'walk' | 'links' | 'follow';
  /** `find ... -exec`: only the entries whose expression can reach exec number `exec` are handed on. */
  readonly find?: { readonly tree: FindNode; readonly exec: number; readonly follow: boolean };
}

export interface PathAccess {
  /** As the tool got it (absolute or relative to the workspace); null when computed at run time. */
  readonly path: string | null;
  /**
   * `any`: an operand of a program whose file effects faultline cannot see
   * (an unknown command, an interpreter's code): judged as a write, or as a
   * read when the command runs in the OS sandbox (which confines its writes).
   */
  readonly access: 'read' | 'write' | 'any';
  /** The path is a shell glob: the chain also judges every file it matches now. */
  readonly glob?: boolean;
  /** With `glob`: the bash pattern (quoted metacharacters escaped); absent = cannot be expanded faithfully. */
  readonly pattern?: string;
  /** What touches the path, for the refusal text (`` `find -exec rm` ``, `` `sort --output` ``). */
  readonly via?: string;
  /** The command reads the whole tree under the path (a directory): see TreeRead. */
  readonly tree?: TreeRead;
}

export interface PermissionSubject {
  readonly tool: string;
  /** The call's input, used only for the session-memory key (tool + stable hash). */
  readonly input: unknown;
  /** The call changes nothing (read, ls, glob, grep). Ignored for `command` subjects: the chain parses the command. */
  readonly readOnly: boolean;
  /** Files the call reads or writes. For `command` subjects the chain adds the paths it finds in the command. */
  readonly paths: readonly PathAccess[];
  /** A shell command line (bash): parsed, split into sub-commands, each judged. */
  readonly command?: string;
  /** The tool's own check (docs/harness-rules.md#permission-chain step 5.5), computed by the tool: deny or ask with a model-facing reason. */
  readonly toolCheck?: { readonly decision: 'deny' | 'ask'; readonly reason: string } | null;
}

export type RuleEffect = 'deny' | 'ask' | 'allow';

/**
 * A configured rule. `tool` is a tool name, `*`, or a name glob (`mcp__github__*`). `pattern` is a glob (`*`
 * matches anything): for commands it is matched against each sub-command's
 * words joined by one space (`git push*`); for other tools against each path
 * (workspace-relative when inside the workspace, else absolute). No pattern
 * matches every call of the tool.
 */
export interface PermissionRule {
  readonly id: string;
  readonly effect: RuleEffect;
  readonly tool: string;
  readonly pattern?: string;
}

/** A PreToolUse hook's permission decision (docs/harness-rules.md#hooks), passed per call. */
export interface HookDecision {
  readonly decision: 'allow' | 'ask' | 'deny';
  readonly reason?: string;
}

/** The steps of the chain, in order (see chain.ts for why each sits where it does). */
export const CHAIN_STEPS = [
  'deny_rules', 'dangerous_command', 'disabled_tools', 'protected_paths', 'path_validation', 'denial_fuse',
  'ask_rules', 'tool_check', 'hook', 'allow_rules', 'session_memory', 'mode', 'read_only', 'default',
] as const;
export type ChainStep = (typeof CHAIN_STEPS)[number];

export interface PermissionConfig {
  readonly mode: PermissionMode;
  /** No human can answer: ask becomes deny (default true, as for suites). */
  readonly headless?: boolean;
  readonly workspaceRoot: string;
  readonly homeDir: string;
  readonly rules?: readonly PermissionRule[];
  readonly disabledTools?: readonly string[];
  readonly extraRoots?: readonly string[];
  readonly protectedPaths?: readonly PathRule[];
  /** Session-scoped state; omit to switch the feature off. */
  readonly sessionMemory?: SessionMemory;
  readonly denials?: DenialTracker;
  /** What a tripped fuse answers: `ask` keeps a human in the loop (docs/harness-rules.md#denial-fuse); headless turns it into deny. */
  readonly fuseDecision?: 'ask' | 'deny';
  /** Steps switched off. For tests that prove a step is what stops a case; never set in production. */
  readonly skipSteps?: ReadonlySet<ChainStep>;
  readonly fs?: PathFs;
  /**
   * bash runs inside the OS sandbox (src/harness/sandbox): writes outside the
   * workspace cannot land, so operands of programs whose effects faultline
   * cannot see are judged as reads, and an unknown write target may be
   * lifted by bypass like any soft ask. Rules are otherwise unchanged.
   */
  readonly sandboxed?: boolean;
}

export interface PermissionResult {
  readonly decision: PermissionDecisionValue;
  readonly source: PermissionSource;
  /** Configured rule id, or a built-in id (`protected:git_hooks`, `danger:rm_critical`), or null. */
  readonly ruleId: string | null;
  /** The chain's own answer was ask (a human was, or would have been, needed). */
  readonly neededPrompt: boolean;
  /** Model-facing: what was refused and what to do instead (empty for allow). */
  readonly reason: string;
  /** The chain step that decided. */
  readonly step: ChainStep;
  /** Set when a defense decided: the pipeline emits defense_trigger with it. */
  readonly defense: { readonly name: DefenseName; readonly action: DefenseAction } | null;
  /** Defenses whose check actually ran on this call (for defense_stats.evaluated; triggered = `defense`). */
  readonly evaluatedDefenses: readonly DefenseName[];
  /** The chain judged the call read-only (a read-only tool, or a command on the read-only list). */
  readonly readOnly: boolean;
}
