/**
 * `isReadOnlyCommand`: true only when every simple command of a parsed bash
 * command line is on the read-only allow list with options known to be safe
 * (command-model.ts), nothing is written through a redirection (except to
 * /dev/null and the std streams), and no flagged construct (substitution,
 * eval, a word bash evaluates, pipe into a shell, env tricks, dynamic command
 * name, function definition) is present.
 * This is what `bash.isConcurrencySafe(input)` uses (docs/harness-rules.md#call-level-concurrency), and what the
 * permission chain's read-only auto-allow uses for bash (docs/harness-rules.md#permission-chain step 10).
 */
import { analyzeShell, type ShellAnalysis, type SimpleCommand } from './shell-analysis.js';
import { judged } from './command-model.js';

/** Write targets that change nothing. */
export const HARMLESS_SINKS: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

export interface ReadOnlyVerdict {
  readonly readOnly: boolean;
  /** Why not (model-facing, short); empty when read-only. */
  readonly reason: string;
}

export function readOnlyVerdict(analysis: ShellAnalysis): ReadOnlyVerdict {
  if (!analysis.ok) return { readOnly: false, reason: `the command could not be parsed (${analysis.error})` };
  // `[[ -f x ]]` and `(( n > 1 ))` have no simple command but are not empty: emptiness is the text's.
  if (analysis.commands.length === 0 && analysis.assignments.length === 0 && analysis.empty) return { readOnly: false, reason: 'the command is empty' };
  const first = analysis.flags[0];
  if (first) return { readOnly: false, reason: `it uses ${first.construct.replaceAll('_', ' ')} (${first.detail})` };
  for (const r of analysis.redirects) {
    if (r.access !== 'write') continue;
    const target = r.target?.value ?? null;
    if (target === null || !HARMLESS_SINKS.has(target)) return { readOnly: false, reason: `it redirects output into ${r.target?.text ?? 'a file'}` };
  }
  for (const cmd of analysis.commands) {
    const why = commandNotReadOnly(cmd);
    if (why) return { readOnly: false, reason: why };
  }
  return { readOnly: true, reason: '' };
}

/** Null when the simple command is read-only, else the reason. */
export function commandNotReadOnly(cmd: SimpleCommand): string | null {
  return judged(cmd).notReadOnly;
}

/** Never throws: any failure means "not read-only" (fail closed, docs/harness-rules.md#call-level-concurrency). */
export function isReadOnlyCommand(command: string): boolean {
  try {
    return readOnlyVerdict(analyzeShell(command)).readOnly;
  } catch {
    return false;
  }
}
