/**
 * Loads the bundled CLI (dist/cli/bundle/, CommonJS chunks that scripts/bundle-cli.mjs writes) with V8's code cache.
 *
 * Why: a cold `faultline` process spends much of its start compiling JavaScript. Node 20 has no compile cache of its
 * own (`module.enableCompileCache` came in Node 22) and none at all for ES modules, so the bundle is CommonJS and
 * each chunk is compiled here as a `vm.Script` with the cached data the build wrote beside it (`<chunk>.v8cache`,
 * made by running the demo suite once: scripts/code-cache.mjs). The cache holds the bytecode of every function that
 * run called, so a function is not parsed and compiled again on its first call either.
 *
 * The cache is only ever read here, never written at run time: nothing in a temporary or shared directory can hand
 * a process code. V8 checks each cache against the chunk's source, its own version and its flags, and compiles
 * from the source when it does not match (another Node version, a rebuilt chunk, `node --some-v8-flag`): a cache can
 * only make the start faster, never change what runs.
 *
 * A chunk's `require('./other.cjs')` loads that chunk the same way; any other `require` is Node's, resolved from
 * the chunk's own directory. A chunk has no `import()` of its own: the bundler made each one a call of the `dynImp`
 * this loader passes it (a script from the code cache loses Node 20's dynamic import callback).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

export const CODE_CACHE_SUFFIX = '.v8cache';

/** The wrapper Node's own CommonJS loader puts around a module, on the source's first line (lines keep their numbers). */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname, dynImp) { ';
const WRAPPER_TAIL = '\n});';

interface LoadedChunk {
  module: { exports: unknown; filename: string; id: string; loaded: boolean };
  script: vm.Script | null;
}

const chunks = new Map<string, LoadedChunk>();
/** A chunk's import(): an external package or builtin, or a module by its URL, resolved as from dist/cli/bundle/. */
const dynImp = (specifier: string): Promise<unknown> => import(specifier);

/** What loading the bundle found: chunks compiled from their cache, from source (no cache), and caches V8 refused. */
export interface CodeCacheStats {
  fromCache: number;
  compiled: number;
  rejected: string[];
}
const stats: CodeCacheStats = { fromCache: 0, compiled: 0, rejected: [] };

/** Runs a bundle chunk (an absolute path) and returns its exports; a chunk already loaded returns the same exports. */
export function loadBundleChunk(file: string): unknown {
  if (process.sourceMapsEnabled) return requireWithSourceMaps(file);
  const known = chunks.get(file);
  if (known) return known.module.exports;
  const module = { exports: {}, filename: file, id: file, loaded: false };
  const chunk: LoadedChunk = { module, script: null };
  chunks.set(file, chunk);
  const cachedData = readCache(file);
  const script = compileChunk(file, cachedData);
  if (cachedData === undefined) stats.compiled++;
  else if (script.cachedDataRejected === true) {
    stats.compiled++;
    stats.rejected.push(file);
  } else stats.fromCache++;
  chunk.script = script;
  const outer = createRequire(file);
  const here = dirname(file);
  const require = Object.assign((id: string) => (id.startsWith('./') && id.endsWith('.cjs') ? loadBundleChunk(join(here, id)) : outer(id)), outer);
  const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, require, module, file, here, dynImp);
  module.loaded = true;
  return module.exports;
}

/**
 * Under `node --enable-source-maps` Node's own loader runs the bundle, without the code cache: Node 20 maps stack
 * traces through a chunk's source map (dist/cli/bundle/*.map, beside it in a build) only for the modules it loads
 * itself, not for a vm.Script. Its wrapper passes no `dynImp`, so the chunks find it as a global.
 */
function requireWithSourceMaps(file: string): unknown {
  (globalThis as { dynImp?: typeof dynImp }).dynImp ??= dynImp;
  return createRequire(file)(file);
}

/** The chunk compiled (not run), from `cachedData` when V8 takes it (script.cachedDataRejected says). */
function compileChunk(file: string, cachedData: Buffer | undefined): vm.Script {
  // A `#!` line (the entry's) is not JavaScript inside the wrapper: a comment in its place, as Node's loader does.
  const source = WRAPPER_HEAD + readFileSync(file, 'utf8').replace(/^#!/, '//') + WRAPPER_TAIL;
  return new vm.Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file + CODE_CACHE_SUFFIX);
  } catch {
    // None shipped (a build without it): compiled from source.
    return undefined;
  }
}

export function codeCacheStats(): CodeCacheStats {
  return { ...stats, rejected: [...stats.rejected] };
}

/**
 * Writes each loaded chunk's code cache beside it: the bytecode of its functions compiled so far. The build calls
 * it at the end of a run (scripts/code-cache.mjs); returns the files written.
 */
export function writeCodeCache(): string[] {
  const written: string[] = [];
  for (const [file, { script }] of chunks) {
    if (script === null) continue;
    writeFileSync(file + CODE_CACHE_SUFFIX, script.createCachedData());
    written.push(file + CODE_CACHE_SUFFIX);
  }
  return written;
}

/** For each chunk in `dir` with a cache beside it: whether V8 takes that cache for the chunk as it is now (tests). */
export function checkCodeCache(dir: string): { chunk: string; accepted: boolean }[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.cjs'))
    .flatMap((name) => {
      const cache = readCache(join(dir, name));
      return cache === undefined ? [] : [{ chunk: name, accepted: compileChunk(join(dir, name), cache).cachedDataRejected !== true }];
    });
}
