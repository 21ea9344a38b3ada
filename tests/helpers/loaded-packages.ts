/**
 * Runs a script in a child `node --import tsx` with a module hook that
 * appends every resolved URL to a log, and returns the npm packages the
 * script loaded. The hook writes synchronously before each resolution
 * returns, so once the child has exited the log holds every module imported.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const HOOKS = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, result.url + '\\n');
  return result;
}
`;

export function runLoggingPackages(script: string): { stdout: string; packages: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-lazy-'));
  try {
    const log = join(dir, 'resolved.log');
    writeFileSync(log, '');
    writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)}, { data: { log: ${JSON.stringify(log)} } });\n`);
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`child exited ${child.status}: ${child.stderr}`);
    const packages = new Set<string>();
    for (const url of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
      const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
      if (m) packages.add(m[1]!);
    }
    // tsx's own loader is resolved in the child too; it is not the script's.
    packages.delete('tsx');
    return { stdout: child.stdout, packages: [...packages].sort() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
