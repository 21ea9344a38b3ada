import { describe, expect, it } from 'vitest';
import { cacheRoot, resolveCache } from './cache-root.js';

describe('where the row cache lives', () => {
  it('is $FAULTLINE_CACHE_DIR, else $XDG_CACHE_HOME/faultline, else ~/.cache/faultline', () => {
    expect(cacheRoot({ FAULTLINE_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c');
    expect(cacheRoot({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/faultline');
    expect(cacheRoot({ HOME: '/h' })).toBe('/h/.cache/faultline');
  });

  it('ignores a relative XDG_CACHE_HOME, as the XDG spec says', () => {
    expect(cacheRoot({ XDG_CACHE_HOME: 'rel', HOME: '/h' })).toBe('/h/.cache/faultline');
  });

  it('is off with enabled: false (--no-cache), and keeps traces of 4 MiB or more by default', () => {
    expect(resolveCache({ enabled: false })).toBeNull();
    expect(resolveCache({ env: { HOME: '/h' } })).toEqual({ root: '/h/.cache/faultline', minBytes: 4 * 1024 * 1024, figures: true });
  });
});
