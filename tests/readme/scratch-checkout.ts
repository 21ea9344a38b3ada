/**
 * A clean checkout of this working tree for the README examples: every
 * top-level entry linked except the generated ones, which start as a fresh
 * clone has them (traces/ with only its committed files; no reports/, no
 * recordings/, no dist/). A `faultline` on PATH runs this checkout's CLI from
 * source, so the examples test the code under test and not a stale build.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Made by builds and runs, never committed: a clean checkout starts without them (traces/ with its committed files). */
const GENERATED = new Set(['.git', 'dist', 'traces', 'reports', 'recordings', '.vitest-tmp']);
/** Provider keys are never handed to an example: nothing in a test may reach a real API. */
export const KEY_VARIABLES = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENAI_COMPATIBLE_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL'];

export interface Scratch {
  root: string;
  env: NodeJS.ProcessEnv;
  remove(): void;
}

export function scratchCheckout(repo: string): Scratch {
  const real = realpathSync(repo);
  const root = mkdtempSync(join(tmpdir(), 'faultline-readme-'));
  for (const entry of readdirSync(real)) if (!GENERATED.has(entry)) symlinkSync(join(real, entry), join(root, entry));
  mkdirSync(join(root, 'traces'));
  for (const file of committedFiles(real, 'traces')) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    copyFileSync(join(real, file), join(root, file));
  }
  const bin = join(root, '.bin');
  mkdirSync(bin);
  // tsx by file URL: `--import tsx` would resolve from the example's working directory.
  const tsx = pathToFileURL(createRequire(join(real, 'package.json')).resolve('tsx')).href;
  writeFileSync(join(bin, 'faultline'), `#!/bin/sh\nexec node --import "${tsx}" "${join(real, 'src/cli/bin.ts')}" "$@"\n`);
  chmodSync(join(bin, 'faultline'), 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, NO_COLOR: '1', GITHUB_STEP_SUMMARY: join(root, 'step-summary.md') };
  for (const name of KEY_VARIABLES) delete env[name];
  return { root, env, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The committed files under `dir` (none when this is not a git checkout). */
function committedFiles(repo: string, dir: string): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z', '--', dir], { cwd: repo, encoding: 'utf8' }).split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `sh -c command` in the checkout; killed (with its process group) after `timeoutMs`. */
export function sh(command: string, scratch: Scratch, unset: string[], timeoutMs: number): Promise<Ran> {
  const env = { ...scratch.env };
  for (const name of unset) delete env[name];
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd: scratch.root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    const timer = setTimeout(() => {
      stderr += `\n[test: killed after ${timeoutMs} ms]`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
