/**
 * Where the row cache lives and when it is used.
 *
 * The cache keeps the typed, already-checked rows of each trace file a
 * report read (rows/manifest.ts), so the next report of the same trace only
 * parses what was appended since. It lives under the user's cache
 * directory, never next to the traces: `$FAULTLINE_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/faultline`, else `~/.cache/faultline` (the XDG default).
 * Deleting that directory clears it; `--no-cache` bypasses it.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export interface RowCacheOptions {
  /** false: read every trace afresh and keep nothing (`--no-cache`). Default true. */
  enabled?: boolean;
  /** The cache directory; default from the environment (see cacheRoot). */
  dir?: string;
  /** Traces smaller than this are read afresh: that is faster than keeping them. Default 4 MiB. */
  minBytes?: number;
  /** The environment consulted for the directory (the CLI passes its io.env). */
  env?: NodeJS.ProcessEnv;
  /** Keep and reuse the figures of a report of unchanged inputs (rows/figures-cache.ts). Default true; tests of the row layer turn it off. */
  figures?: boolean;
}

export const DEFAULT_MIN_BYTES = 4 * 1024 * 1024;

/** The cache directory for an environment. A relative XDG_CACHE_HOME is ignored, as the XDG spec says. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.FAULTLINE_CACHE_DIR) return env.FAULTLINE_CACHE_DIR;
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.cache'), 'faultline');
}

export interface ResolvedCache {
  root: string;
  minBytes: number;
  figures: boolean;
}

/** null when caching is off. */
export function resolveCache(options: RowCacheOptions | undefined): ResolvedCache | null {
  if (options?.enabled === false) return null;
  return { root: options?.dir ?? cacheRoot(options?.env), minBytes: options?.minBytes ?? DEFAULT_MIN_BYTES, figures: options?.figures ?? true };
}
