/**
 * `yaml` (the parser kept for source positions) loads only when a message
 * needs a position: a clean suite is read by js-yaml alone, so `run` does not
 * pay the ~35 ms of loading it. A bad suite still gets its `file:line:col`.
 *
 * Seen from a fresh child: CommonJS packages (yaml ships CommonJS for Node),
 * whether imported or required, land in the require cache.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');

/** Loads `suite` in a child; returns the error text (or '') and whether `yaml` was loaded. */
function loadInChild(suite: string): { error: string; yamlLoaded: boolean } {
  const loader = pathToFileURL(resolve(root, 'src/suites/load-suite.ts')).href;
  const script = `
    import { createRequire } from 'node:module';
    const { loadSuites } = await import(${JSON.stringify(loader)});
    let error = '';
    try { loadSuites([${JSON.stringify(suite)}]); } catch (e) { error = e.message; }
    const yamlLoaded = Object.keys(createRequire(import.meta.url).cache).some((f) => /[\\\\/]node_modules[\\\\/]yaml[\\\\/]/.test(f));
    process.stdout.write(JSON.stringify({ error, yamlLoaded }));
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout) as { error: string; yamlLoaded: boolean };
}

describe('suite loading loads `yaml` only for messages', () => {
  it('a clean suite is read without loading yaml', () => {
    const suite = join(tempDir('faultline-lazy-yaml-'), 'ok.yaml');
    writeFileSync(suite, ['tasks:', '  - id: one', '    prompt: Say hi.', '    script:', '      - text: hi', ''].join('\n'));
    expect(loadInChild(suite)).toEqual({ error: '', yamlLoaded: false });
  });

  it('a bad suite loads yaml and names file, line and column', () => {
    const suite = join(tempDir('faultline-lazy-yaml-'), 'bad.yaml');
    writeFileSync(suite, ['tasks:', '  - id: one', '    prompt: Say hi.', '    max_turns: -1', ''].join('\n'));
    const { error, yamlLoaded } = loadInChild(suite);
    expect(error).toMatch(new RegExp(`^${suite.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:16: tasks\\.0\\.max_turns: `));
    expect(yamlLoaded).toBe(true);
  });
});
