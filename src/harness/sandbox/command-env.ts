/**
 * The environment a command the model runs sees: an allow list, in every
 * mode (bubblewrap or not). The harness process holds the provider's API
 * key, and a developer's shell holds database passwords, cloud keys and
 * tokens under names no pattern can predict (`PGPASSWORD`, `DATABASE_URL`
 * with a password in it, `*_PAT`), so nothing is passed by default except
 * what programs need to run and print: the search path, the locale, the
 * terminal, the time zone, the user's name. `FAULTLINE_PASS_ENV` (names,
 * comma separated) passes more, on purpose, for a suite that needs them.
 */

/** Passed when set. `LC_*` is matched as a prefix. */
export const COMMAND_ENV_ALLOWED: readonly string[] = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TERM', 'COLORTERM', 'NO_COLOR', 'FORCE_COLOR', 'TZ', 'TMPDIR', 'CI',
];
const ALLOWED_PREFIXES = ['LC_'];
/** The host variable naming more variables to pass (comma or space separated). */
export const PASS_ENV_VARIABLE = 'FAULTLINE_PASS_ENV';

export interface CommandEnvOptions {
  /** $HOME for the command (default: the source's). */
  readonly home?: string;
  /** More variables to set (a marker the harness tracks processes by). */
  readonly extra?: Readonly<Record<string, string>>;
}

export function commandEnv(source: NodeJS.ProcessEnv = process.env, options: CommandEnvOptions = {}): NodeJS.ProcessEnv {
  const passed = new Set((process.env[PASS_ENV_VARIABLE] ?? '').split(/[\s,]+/).filter((n) => n !== ''));
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (COMMAND_ENV_ALLOWED.includes(name) || ALLOWED_PREFIXES.some((p) => name.startsWith(p)) || passed.has(name)) out[name] = value;
  }
  if (options.home !== undefined) out.HOME = options.home;
  return { ...out, ...options.extra };
}
