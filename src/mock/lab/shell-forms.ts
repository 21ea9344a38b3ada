/**
 * A generic script call the harness has no tool for, as a command for its
 * shell tool: Claude Code, for one, has Bash but no LS, Grep or Glob, and no
 * harness has a `sleep` tool of the lab's kind. Every argument is quoted for a
 * POSIX shell (single quotes, an embedded quote closed, escaped and reopened),
 * never pasted into the command as it comes; a value that is not what the
 * generic tool takes (a non-string path, a non-numeric wait) leaves the call
 * unmapped.
 */

/** One argument quoted for a POSIX shell: the shell reads it back byte for byte. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

const text = (value: unknown, fallback: string | null): string | null => (value === undefined ? fallback : typeof value === 'string' && value !== '' ? value : null);

type Form = (input: Record<string, unknown>) => string | null;

export const SHELL_FORMS: Readonly<Record<string, Form>> = {
  ls: (input) => {
    const path = text(input['path'], '.');
    return path === null ? null : `ls -la -- ${shellQuote(path)}`;
  },
  grep: (input) => {
    const pattern = text(input['pattern'], null);
    const path = text(input['path'], '.');
    return pattern === null || path === null ? null : `grep -rn -e ${shellQuote(pattern)} -- ${shellQuote(path)}`;
  },
  glob: (input) => {
    const pattern = text(input['pattern'], null);
    const path = text(input['path'], '.');
    return pattern === null || path === null ? null : `find ${shellQuote(path)} -path ${shellQuote(pattern.includes('/') ? `*/${pattern.replace(/^\.\//, '')}` : `*/${pattern}`)}`;
  },
  sleep: (input) => {
    const ms = input['ms'];
    // A number the shell's sleep takes in seconds (decimals allowed by GNU and BSD sleep).
    return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? `sleep ${Number((ms / 1000).toFixed(3))}` : null;
  },
};

/** The shell command for a generic call, or null (no shell form for the name, or input it does not take). */
export function shellForm(name: string, input: Record<string, unknown>): string | null {
  return Object.hasOwn(SHELL_FORMS, name) ? (SHELL_FORMS[name] as Form)(input) : null;
}
