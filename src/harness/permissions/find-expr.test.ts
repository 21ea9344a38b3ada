import { describe, expect, it } from 'vitest';
import { findTree, reachedExecs, type FindToken } from './find-expr.js';

const t = (...words: string[]): FindToken[] => {
  const out: FindToken[] = [];
  let exec = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (w === 'EXEC') out.push({ exec: exec++ });
    else if (['!', '-not', '-a', '-and', '-o', '-or', ',', '(', ')'].includes(w)) out.push({ op: w });
    else if (w === '-name' || w === '-iname' || w === '-type') out.push({ test: w, arg: words[++i] ?? null });
    else out.push({ test: w, arg: null });
  }
  return out;
};
const reaches = (tokens: FindToken[], name: string, follow = false) => [...reachedExecs(findTree(tokens)!, { name, symlink: true }, follow)];

describe('find expression', () => {
  it('hands a symlink to -exec only when the tests before it can pass for that name', () => {
    expect(reaches(t('-name', '*.ts', 'EXEC'), 'link')).toEqual([]);
    expect(reaches(t('-name', '*.ts', 'EXEC'), 'x.ts')).toEqual([0]);
    expect(reaches(t('EXEC'), 'link')).toEqual([0]);
    expect(reaches(t('-type', 'f', 'EXEC'), 'link')).toEqual([]);
    expect(reaches(t('-type', 'f', 'EXEC'), 'link', true)).toEqual([0]); // -L: the link's type is its target's
    expect(reaches(t('-iname', 'LINK', 'EXEC'), 'link')).toEqual([0]);
  });

  it('follows -o, !, parentheses and unknown tests the way find short-circuits them', () => {
    expect(reaches(t('-name', 'a', '-o', 'EXEC'), 'link')).toEqual([0]);
    expect(reaches(t('-name', 'link', '-o', 'EXEC'), 'link')).toEqual([]);
    expect(reaches(t('!', '-name', '*.ts', 'EXEC'), 'link')).toEqual([0]);
    expect(reaches(t('(', '-name', 'a', '-o', '-name', 'b', ')', 'EXEC'), 'link')).toEqual([]);
    expect(reaches(t('-newer', 'EXEC'), 'link')).toEqual([0]); // an unknown test may pass
    expect(reaches(t('-name', 'x', 'EXEC', ',', 'EXEC'), 'link')).toEqual([1]);
  });

  it('refuses a malformed expression', () => {
    expect(findTree(t('(', '-name', 'x'))).toBeNull();
    expect(findTree(t('-o'))).toBeNull();
  });
});
