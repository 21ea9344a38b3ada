/**
 * The defenses this harness has, each self-describing (seed §4.5, §13.1): what
 * it guards against and which fault scenarios must make it fire. The loop
 * arms the ones in ARMED_BY_DEFAULT; a suite can switch any of them off.
 */
import type { DefenseName } from '../../events/labels.js';

export interface DefenseInfo {
  name: DefenseName;
  guards: string;
}

export const LOOP_DEFENSES: readonly DefenseInfo[] = [
  {
    name: 'end_turn_fallthrough',
    guards: 'end_turn (or stop) with a pending tool_use: execute it instead of ending the task half done (seed §4.5 F2)',
  },
  {
    name: 'cut_tool_call_guard',
    guards: 'max_tokens / length / context window cut a tool_use: never execute it, answer it with an error (seed §2.3)',
  },
  {
    name: 'stop_reason_fail_closed',
    guards: 'null or unknown stop reason: end the loop without running anything (whitelist, seed §4.5)',
  },
];

/** Defenses of the tool pipeline and the permission chain (seed §8, §9). */
export const PIPELINE_DEFENSES: readonly DefenseInfo[] = [
  {
    name: 'dangerous_command_block',
    guards: 'rm -rf /, mkfs, curl|sh and friends: refused before any mode or allow rule (seed §8.2 b); faults/permissions-dangerous-*',
  },
  {
    name: 'protected_path_guard',
    guards: '.git/hooks, .git/config, harness hooks: bypass-immune, checked before bypass and allow (seed §8.2 a); faults/permissions-protected-*',
  },
  {
    name: 'denial_fuse',
    guards: 'the model retrying a refused tool: after N denials further calls stop at the fuse, counted once per trip (seed §8.7); faults/permissions-denial-fuse',
  },
  {
    name: 'spill_read_loop',
    guards: 'read of a spilled result re-spilled in a loop: read is never spilled (seed §9.2); faults/pipeline-spill-then-read',
  },
];

export const ARMED_BY_DEFAULT: readonly DefenseName[] = [...LOOP_DEFENSES, ...PIPELINE_DEFENSES].map((d) => d.name);

/** The defenses a session arms: all known ones minus those a suite switched off. */
export function armedDefenses(disabled: readonly DefenseName[]): DefenseName[] {
  return ARMED_BY_DEFAULT.filter((name) => !disabled.includes(name));
}
