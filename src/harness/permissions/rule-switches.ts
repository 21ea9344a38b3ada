/**
 * Switches for the rules inside the shell analysis, so tests can show that
 * each rule is what stops its attacks (HELPERS: a defense is shown to fail
 * when switched off). The chain's own steps have `PermissionConfig.skipSteps`;
 * these rules sit below the chain, inside the cached analysis, so they are a
 * process-wide test hook instead. Production never calls `setRulesOff`.
 */
export const RULE_SWITCHES = [
  /** Unknown options are not safe; abbreviations resolve against the full table (option-parse.ts). */
  'option_tables',
  /** Words bash evaluates: subscripts, `${x@P}`, arithmetic on variables (shell-evaluated.ts). */
  'evaluated_words',
  /** Every operand of every command is path-judged, writers and opaque programs included (command-model.ts). */
  'operand_paths',
  /** A directory read as a tree is walked: symlinks a command follows out of it, and secrets under an outside one (tree-reads.ts). */
  'tree_reads',
  /** Code faultline cannot see (scripts, inline code, unknown programs) needs approval in every mode without the OS sandbox (command-opaque.ts, chain.ts). */
  'opaque_code',
  /** The closed table of environment variables and config sources (command-words.ts, command-git.ts). */
  'config_sources',
  /** The repository git would use must not have a configuration the agent could write (git-repo.ts). */
  'git_repository',
  /** `..` is resolved physically, after symlinks (path-resolve.ts). */
  'physical_dotdot',
  /** Globs are expanded as bash reads them (glob-match.ts), or refused; `shopt` makes them unknown (glob-expand.ts, call-view.ts). */
  'glob_semantics',
  /** Words are what bash reads: a parse that splits or joins words differently is refused, literal `$` kept (shell-parser.ts, shell-words.ts). */
  'word_fidelity',
  /** Working directories compose (`cd a && cd b` is a/b), and a `cd` target bash computes (`~-`, a glob) is unknown (call-view.ts, shell-words.ts). */
  'working_dirs',
  /** Hooks and program-running git config a changing call adds to any git dir of the workspace are undone after it (sandbox/git-state.ts, pipeline/execute.ts). */
  'git_state',
] as const;
export type RuleSwitch = (typeof RULE_SWITCHES)[number];

let off: ReadonlySet<RuleSwitch> = new Set();
const listeners: (() => void)[] = [];

export function isRuleOn(rule: RuleSwitch): boolean {
  return off.size === 0 || !off.has(rule);
}

/** Tests only. Clears every cache that depends on the rules. */
export function setRulesOff(rules: Iterable<RuleSwitch>): void {
  off = new Set(rules);
  for (const l of listeners) l();
}

/** A cache registers here to be cleared when the switches change. */
export function onRulesChanged(listener: () => void): void {
  listeners.push(listener);
}
