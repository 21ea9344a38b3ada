import { describe, expect, it } from 'vitest';
import { expandGlob, MAX_GLOB_MATCHES } from './glob-expand.js';

const tree: Record<string, string[]> = {
  '/': ['ws'],
  '/ws': ['.env', '.env.local', 'a.ts', 'b.ts', 'src'],
  '/ws/src': ['x.ts', 'y.js'],
};
const readDir = (d: string): string[] => {
  const names = tree[d];
  if (!names) throw new Error('ENOENT');
  return names;
};

describe('glob expansion', () => {
  it('matches *, ? and [...] per path segment, hidden files included', () => {
    expect(expandGlob('*.ts', '/ws', readDir)).toEqual(['/ws/a.ts', '/ws/b.ts']);
    expect(expandGlob('.env*', '/ws', readDir)).toEqual(['/ws/.env', '/ws/.env.local']);
    expect(expandGlob('[ab].ts', '/ws', readDir)).toEqual(['/ws/a.ts', '/ws/b.ts']);
    expect(expandGlob('[!a].ts', '/ws', readDir)).toEqual(['/ws/b.ts']);
    expect(expandGlob('*/?.js', '/ws', readDir)).toEqual(['/ws/src/y.js']);
  });

  it('returns no match as an empty list and too many as null (unknown)', () => {
    expect(expandGlob('*.rs', '/ws', readDir)).toEqual([]);
    const many = (d: string): string[] => (d === '/big' ? Array.from({ length: MAX_GLOB_MATCHES + 1 }, (_, i) => `f${i}`) : []);
    expect(expandGlob('/big/*', '/', many)).toBeNull();
  });
});
