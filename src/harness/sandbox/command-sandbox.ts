/** How the bash tool starts one command, whichever sandbox (sandbox.ts) it runs in. */

/** What ran: the closed label written on session_start. */
export type SandboxKind = 'bubblewrap' | 'none';

export interface CommandSandbox {
  readonly kind: SandboxKind;
  /**
   * The program and arguments that run `bash -c command` in `cwd`, and the environment to give it.
   * `statusCarriesSignal`: a command killed by signal n is reported as exit 128+n (an init process in between).
   */
  spawnArgs(command: string, cwd: string): { file: string; args: string[]; env?: NodeJS.ProcessEnv; statusCarriesSignal?: boolean };
}
