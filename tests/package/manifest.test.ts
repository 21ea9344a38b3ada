/**
 * What the package ships, read from `npm pack --dry-run --json` (the list npm
 * would publish) and package.json: fast checks of what a user's install gets.
 * The slow end-to-end check (pack, `npm ci` in a fresh project, run) is
 * install.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';

const root = resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

interface PackEntry {
  path: string;
  size: number;
}
const packed = (): PackEntry[] => {
  // --ignore-scripts: the list of what dist/ holds now (npm ci built it), without building again.
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  return (JSON.parse(out) as [{ files: PackEntry[] }])[0].files;
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mjs)$/.test(e.name) && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name));
}

describe('package.json', () => {
  it('does not depend on itself (npm ci in a project that depends on it fails: "Missing: faultline from lock file")', () => {
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const) {
      expect(Object.keys((manifest as unknown as Record<string, Record<string, string> | undefined>)[field] ?? {}), field).not.toContain(manifest.name);
    }
  });

  it('lists at run time only what the shipped code imports', () => {
    const code = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'suites'))].map((f) => readFileSync(f, 'utf8')).join('\n');
    const unused = Object.keys(manifest.dependencies).filter((dep) => !code.includes(`'${dep}`) && !code.includes(`"${dep}`));
    expect(unused).toEqual([]);
  });
});

describe('the packed file list', () => {
  const files = packed();
  const paths = new Set(files.map((f) => f.path));

  it('has a LICENSE, the demo and lab suites, the fault and control catalogs and the user-defense example', () => {
    for (const path of ['LICENSE', 'suites/demo/basics.yaml', 'suites/lab/protocol.yaml', 'suites/faults/mcp/fault-server.mjs', 'suites/controls/loop-lookalikes.yaml', 'examples/user-defense/suite.yaml', 'examples/user-defense/no-test-skip.mjs', 'schema/events.v1.json']) {
      expect(paths.has(path), path).toBe(true);
    }
  });

  it('has no source map (they point at src/, which is not shipped), no test helper and each SQL file once', () => {
    expect([...paths].filter((p) => p.endsWith('.map'))).toEqual([]);
    expect([...paths].filter((p) => /(^|\/)test-[^/]*$|\.test\./.test(p))).toEqual([]);
    expect([...paths].filter((p) => p.startsWith('src/'))).toEqual([]);
    const sql = [...paths].filter((p) => p.endsWith('.sql')).map((p) => p.split('/').slice(-2).join('/'));
    expect(sql.length).toBeGreaterThan(0);
    expect(new Set(sql).size).toBe(sql.length);
  });

  it('holds every file a shipped suite names (servers, hook and defense modules)', () => {
    const named: string[] = [];
    for (const path of paths) {
      if (!/^suites\/.*\.ya?ml$/.test(path)) continue;
      const text = readFileSync(join(root, path), 'utf8');
      // `${suite_dir}/x` in server args, and the modules `defenses:` / `hooks:` name relative to the suite.
      for (const m of text.matchAll(/\$\{suite_dir\}\/([^"'\s,\]]+)/g)) named.push(relative(root, resolve(root, dirname(path), m[1]!)));
      const doc = load(text) as { defaults?: { defenses?: string[]; hooks?: string }; tasks?: { defenses?: string[]; hooks?: string }[] };
      for (const t of [doc.defaults ?? {}, ...(doc.tasks ?? [])]) {
        const modules = [...(t.defenses ?? []).filter((d) => /[./]/.test(d)), ...(typeof t.hooks === 'string' ? [t.hooks] : [])];
        for (const m of modules) named.push(relative(root, resolve(root, dirname(path), m)));
      }
    }
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((p) => !paths.has(p))).toEqual([]);
    expect(named.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });
});
