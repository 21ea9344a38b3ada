import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README_REFS } from './readme-refs.js';

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');

describe('README references', () => {
  it('every section a finding points to is a heading of the README, under that title', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const headings = [...readme.matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1] ?? '');
    for (const ref of Object.values(README_REFS)) {
      expect(headings, ref.title).toContain(ref.title);
      expect(anchorOf(ref.title), ref.title).toBe(ref.anchor);
    }
  });
});
