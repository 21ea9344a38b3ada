/**
 * Links into docs/ stay true: every `docs/<page>.md#anchor` written anywhere in
 * the repository (code comments, suites, the README, docs/ itself) and every
 * relative link between the pages names a page that exists and a heading it
 * has; every repository path a page names in backticks exists.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../architecture/import-graph.js';

const DOCS = join(REPO_ROOT, 'docs');
/** Another project's docs/ named in a comment (the word before the path names the project). */
const OTHER_PROJECTS = /(?:opentelemetry-proto) $/;
const pages = readdirSync(DOCS).filter((f) => f.endsWith('.md'));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(page: string): Set<string> {
  const text = readFileSync(join(DOCS, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else if (/\.(ts|mts|mjs|js|md|yaml|yml|sql|json)$/.test(name)) out.push(path);
  }
  return out;
}

const SCANNED = ['src', 'tests', 'suites', 'bench', 'examples', 'scripts', 'docs'].flatMap((d) => (existsSync(join(REPO_ROOT, d)) ? filesUnder(join(REPO_ROOT, d)) : [])).concat(join(REPO_ROOT, 'README.md'));

describe('links into docs/', () => {
  it('every docs/<page>.md#anchor in the repository names a page and a heading it has', () => {
    const known = new Map(pages.map((p) => [p, anchors(p)]));
    const broken: string[] = [];
    let seen = 0;
    for (const file of SCANNED) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?<![\w/.-])docs\/([a-z0-9-]+\.md)(?:#([a-z0-9_-]+))?/g)) {
        if (OTHER_PROJECTS.test(text.slice(Math.max(0, m.index - 40), m.index))) continue;
        seen++;
        const [, page, anchor] = m;
        const where = `${relative(REPO_ROOT, file)}: docs/${page}${anchor ? `#${anchor}` : ''}`;
        if (!known.has(page!)) broken.push(`${where} (no such page)`);
        else if (anchor && !known.get(page!)!.has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
    expect(seen).toBeGreaterThan(0);
  });

  it('links between the pages name a page and a heading it has', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(DOCS, page), 'utf8');
      for (const m of text.matchAll(/\]\((?!https?:)([a-z0-9-]*\.md)?(?:#([a-z0-9_-]+))?\)/g)) {
        const target = m[1] ?? page;
        if (!pages.includes(target)) broken.push(`${page}: ${m[0]} (no such page)`);
        else if (m[2] && !anchors(target).has(m[2])) broken.push(`${page}: ${m[0]} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every repository path the pages name exists (a "Where" name without a folder is beside the one before it)', () => {
    const missing: string[] = [];
    for (const page of pages.filter((p) => p !== 'event-contract.md')) {
      const text = readFileSync(join(DOCS, page), 'utf8');
      for (const paragraph of text.split(/\n\s*\n/)) {
        let folder = '';
        for (const m of paragraph.matchAll(/`([^`\s]+)`/g)) {
          const name = m[1]!.replace(/#.*$/, '');
          // a file a walkthrough creates is marked so: `path` (new)
          if (/[<>*]/.test(name) || text.includes(`\`${m[1]}\` (new)`)) continue;
          if (/^(src|tests|suites|schema|scripts|bench|examples|docs)\//.test(name)) {
            if (!existsSync(join(REPO_ROOT, name))) missing.push(`${page}: ${name}`);
            folder = name.endsWith('/') ? name : name.slice(0, name.lastIndexOf('/') + 1);
          } else if (/^[a-z0-9-]+\.(ts|sql)$/.test(name) && folder !== '' && !existsSync(join(REPO_ROOT, folder, name))) {
            missing.push(`${page}: ${name} (beside ${folder})`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('names', () => {
  it('every snake_case name the design pages put in backticks (a defense, a lab check, a field, a label) exists in src/', () => {
    const source = filesUnder(join(REPO_ROOT, 'src')).map((f) => readFileSync(f, 'utf8')).join('\n');
    const unknown: string[] = [];
    for (const page of ['architecture.md', 'harness-rules.md']) {
      for (const m of readFileSync(join(DOCS, page), 'utf8').matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)) if (!source.includes(m[1]!)) unknown.push(`${page}: ${m[1]}`);
    }
    expect(unknown).toEqual([]);
  });
});

describe('headings', () => {
  it('are unique within a page, so every anchor names one place', () => {
    const twice: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(DOCS, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      const seen = new Set<string>();
      for (const m of text.matchAll(/^#{1,6} (.+)$/gm)) {
        const s = slug(m[1]!);
        if (seen.has(s)) twice.push(`${page}#${s}`);
        seen.add(s);
      }
    }
    expect(twice).toEqual([]);
  });
});

describe('slug', () => {
  it('makes the anchors GitHub makes', () => {
    expect(slug('Stop reasons')).toBe('stop-reasons');
    expect(slug('What may import what')).toBe('what-may-import-what');
    expect(slug('`tool_failure` (v1)')).toBe('tool_failure-v1');
  });
});
