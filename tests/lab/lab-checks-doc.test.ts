/**
 * docs/lab-checks.md cannot drift from the catalog: every check has its
 * section (and no section names a check that does not exist), each states the
 * catalog's severity, and each says what it looks at, where and what it
 * catches.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_IDS, CHECKS } from '../../src/mock/lab/catalog.js';

const DOC = join(import.meta.dirname, '../../docs/lab-checks.md');
const README = join(import.meta.dirname, '../../README.md');

/** The page's `## \`check_id\`` sections, each with its text up to the next heading. */
function sections(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = text.split(/^## /m).slice(1);
  for (const part of parts) {
    const id = /^`([a-z_]+)`/.exec(part)?.[1];
    if (id !== undefined) out.set(id, part);
  }
  return out;
}

describe('docs/lab-checks.md', () => {
  const text = readFileSync(DOC, 'utf8');
  const bySection = sections(text);

  it('has a section for every check of the catalog, and none for a check that does not exist', () => {
    expect([...bySection.keys()].sort()).toEqual([...CHECK_IDS].sort());
  });

  it.each(CHECK_IDS)('states the catalog severity of %s and what it looks at, where and what it catches', (id) => {
    const section = bySection.get(id) ?? '';
    expect(section).toMatch(new RegExp(`\\*\\*Severity:\\*\\* ${CHECKS[id].severity}\\n`));
    for (const field of ['Looks at', 'Wires', 'Catches']) expect(section, `${id}: ${field}`).toMatch(new RegExp(`\\*\\*${field}:\\*\\* \\S`));
  });

  it('is linked from the README\'s lab section', () => {
    const readme = readFileSync(README, 'utf8');
    const lab = readme.slice(readme.indexOf('### Black-box lab'), readme.indexOf('### Reports'));
    expect(lab).toContain('(docs/lab-checks.md)');
  });
});
