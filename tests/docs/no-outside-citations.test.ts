/**
 * Comments, suites and docs cite reasons, not sections of documents that are
 * not in the repository: a reader who clones it can follow every reference
 * (to docs/, or to a public source). A citation of the design notes or of the
 * guide they came from, by section number or by name, fails here with its
 * file and line. (The patterns are built from pieces so this file does not match itself.)
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../architecture/import-graph.js';
import { tempDir } from '../helpers/temp-dirs.js';

const SECTION = '\u00a7';
const FORBIDDEN: readonly [string, RegExp][] = [
  ['a section of the guide', new RegExp(`\\bseed(?:'s)?\\s*(?:\\*\\s*)?${SECTION}`, 'i')],
  ['a section of the design notes', new RegExp(`\\bDESIGN\\s*${SECTION}`)],
  ['the design notes', new RegExp(['DESIGN', 'md'].join('\\.'))],
  ['a bare section number', new RegExp(`${SECTION}\\s?\\d`)],
];

const ROOTS = ['src', 'tests', 'suites', 'bench', 'examples', 'scripts', 'docs'];
const TEXT = /\.(ts|mts|mjs|cjs|js|md|yaml|yml|sql|json|txt)$/;

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (TEXT.test(name)) out.push(path);
  }
  return out;
}

export function outsideCitations(paths: readonly string[]): string[] {
  const found: string[] = [];
  for (const path of paths) {
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.forEach((line, i) => {
      // a citation may break across a comment's lines: the word at the end of one, the section on the next
      const joined = `${line} ${lines[i + 1] ?? ''}`;
      for (const [what, pattern] of FORBIDDEN) {
        if (pattern.test(line) || (what === 'a section of the guide' && pattern.test(joined) && !pattern.test(lines[i + 1] ?? ''))) {
          found.push(`${relative(REPO_ROOT, path)}:${i + 1}: ${what}: ${line.trim().slice(0, 120)}`);
        }
      }
    });
  }
  return found;
}

describe('references', () => {
  it('no file in src/, tests/, suites/, bench/, examples/, scripts/, docs/ or the README cites a document outside the repository', () => {
    const paths = [...ROOTS.filter((d) => existsSync(join(REPO_ROOT, d))).flatMap((d) => files(join(REPO_ROOT, d))), join(REPO_ROOT, 'README.md')];
    expect(paths.length).toBeGreaterThan(100);
    expect(outsideCitations(paths)).toEqual([]);
  });

  it('the check finds each form of such a citation', () => {
    const sample = join(tempDir(), 'sample.ts');
    const design = ['DESIGN', 'md'].join('.');
    writeFileSync(sample, [`the loop (seed ${SECTION}4.4) ends`, `see DESIGN ${SECTION}6`, `read ${design} first`, `cut off (${SECTION}2.3) calls`, ' * a comment (seed', ` * ${SECTION}8.4) that breaks`, 'a random seed of 4 is fine'].join('\n'));
    expect(outsideCitations([sample]).map((f) => f.slice(f.indexOf(':') + 1))).toEqual([
      `1: a section of the guide: the loop (seed ${SECTION}4.4) ends`,
      `1: a bare section number: the loop (seed ${SECTION}4.4) ends`,
      `2: a section of the design notes: see DESIGN ${SECTION}6`,
      `2: a bare section number: see DESIGN ${SECTION}6`,
      `3: the design notes: read ${design} first`,
      `4: a bare section number: cut off (${SECTION}2.3) calls`,
      '5: a section of the guide: * a comment (seed',
      `6: a bare section number: * ${SECTION}8.4) that breaks`,
    ]);
  });
});
