/** Result types of the shell analysis (shell-analysis.ts). */
import type { ShellWord } from './shell-words.js';

export interface Redirection {
  /** Operator as written: `>`, `>>`, `<`, `&>`, `>&`, `<<<`, `<<`... */
  readonly op: string;
  /** `write` and `read` have a file target; `fd` duplicates or closes a descriptor; `inline` is a here-doc/string. */
  readonly access: 'read' | 'write' | 'fd' | 'inline';
  readonly target: ShellWord | null;
}

export interface Assignment {
  readonly name: string;
  readonly value: ShellWord | null;
}

export interface SimpleCommand {
  /** Words as written, command name first (prefix assignments are in `assignments`). */
  readonly argv: readonly ShellWord[];
  /** `FOO=x cmd` prefix assignments. */
  readonly assignments: readonly Assignment[];
  /** Redirections applied to this command (also listed in the analysis-wide list). */
  readonly redirects: readonly Redirection[];
  /** stdin comes from an earlier pipeline stage, a here-doc or a here-string. */
  readonly stdinFed: boolean;
  /** Names of the commands run inside substitutions in this command's words. */
  readonly substitutedCommands: readonly string[];
  readonly text: string;
}

export type ShellConstruct =
  | 'command_substitution'
  | 'backticks'
  | 'process_substitution'
  | 'eval_like'
  | 'pipe_to_interpreter'
  | 'env_tampering'
  | 'dynamic_command'
  | 'function_definition';

export interface ShellFlag {
  readonly construct: ShellConstruct;
  /** Short, model-facing detail (e.g. the command name); never used as a label. */
  readonly detail: string;
}

export interface FunctionDef {
  readonly name: string;
  /** Its body calls the function itself (the `:(){ :|:& };:` shape). */
  readonly recursive: boolean;
}

export type ShellAnalysis =
  | {
      readonly ok: true;
      readonly commands: readonly SimpleCommand[];
      readonly redirects: readonly Redirection[];
      /** Stand-alone and exported/declared assignments (not command prefixes). */
      readonly assignments: readonly Assignment[];
      readonly functions: readonly FunctionDef[];
      readonly flags: readonly ShellFlag[];
      /** Glob words outside any command's argv (`for f in /home/*`): bash lists directories to expand them. */
      readonly globWords: readonly ShellWord[];
      /** Nothing but blanks and comments. */
      readonly empty: boolean;
    }
  | { readonly ok: false; readonly error: string };
